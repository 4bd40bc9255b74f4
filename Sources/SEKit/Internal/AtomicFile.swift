import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Atomic file replacement: write to a temporary name in the same folder, then `rename(2)`.
/// A process killed at any moment leaves either the old file, the complete new one, or no file
/// under the final name, and at worst a hidden `.NAME.tmp-PID-N`, which the next writer of that
/// output removes (``removeStaleTemporaries(in:named:)``: its process is gone).
public enum AtomicFile {
    /// Errors name the file and the failing system call.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    private static let counter = Counter()

    /// Removes the temporary files `.NAME.tmp-PID[-N]` in `folder` (only those of output `name`
    /// when given) whose writing process no longer exists on this host: a writer killed between
    /// creating its temporary file and renaming it. Files of live processes (another shard
    /// writing right now) and of this process are left alone.
    /// - Returns: the names removed.
    @discardableResult
    public static func removeStaleTemporaries(in folder: URL, named name: String? = nil) -> [String] {
        let me = Int(getpid())
        var removed: [String] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where entry.hasPrefix(".") {
            guard let marker = entry.range(of: ".tmp-", options: .backwards) else { continue }
            if let name, String(entry[entry.index(after: entry.startIndex)..<marker.lowerBound]) != name { continue }
            let digits = entry[marker.upperBound...].prefix { $0.isNumber }
            guard let pid = Int(digits), pid != me, !ProcessProbe.isAlive(pid: pid) else { continue }
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(entry))) != nil { removed.append(entry) }
        }
        return removed
    }

    /// The temporary path used for `url`: hidden, in the same folder, unique per process and call.
    public static func temporaryURL(for url: URL) -> URL {
        URL(fileURLWithPath: temporaryPath(for: url.path))
    }

    /// ``temporaryURL(for:)`` for a path: `FOLDER/.NAME.tmp-PID-N` (string operations only, as
    /// this runs three times per clip of a mix).
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(folder).\(name).tmp-\(getpid())-\(counter.next())"
    }

    /// Writes `data` to `url` atomically with one `write(2)` (`open`, `write`, `close`, `rename`).
    /// - Throws: ``Failure`` naming the path and the failed call.
    public static func write(_ data: Data, to url: URL) throws {
        try data.withUnsafeBytes { try write(parts: [$0], toPath: url.path) }
    }

    /// Writes the concatenation of `parts` to `path` atomically (a header and a payload, say,
    /// without first copying them into one buffer): `open`, `write` per part, `close`, `rename`.
    /// - Throws: ``Failure`` naming the path and the failed call.
    public static func write(parts: [UnsafeRawBufferPointer], toPath path: String) throws {
        let temporary = temporaryPath(for: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: path, reason: "open: \(String(cString: strerror(errno)))") }
        var ok = true
        for raw in parts where ok && raw.count > 0 {
            var written = 0
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 { if errno == EINTR { continue }; ok = false; break }
                written += n
            }
        }
        let writeErrno = errno
        close(fd)
        guard ok else {
            unlink(temporary)
            throw Failure(path: path, reason: "write: \(String(cString: strerror(writeErrno)))")
        }
        try commit(temporaryPath: temporary, toPath: path)
    }

    /// Renames a finished temporary file onto its final name (`rename(2)`).
    public static func commit(_ temporary: URL, to url: URL) throws {
        try commit(temporaryPath: temporary.path, toPath: url.path)
    }

    static func commit(temporaryPath temporary: String, toPath path: String) throws {
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(path: path, reason: "rename: \(reason)")
        }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }
}
