import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Atomic file replacement: write to a temporary name in the same folder, then `rename(2)`.
/// A process killed at any moment leaves either the old file, the complete new one, or no file
/// under the final name, and at worst a hidden `.NAME.tmp-PID-N-hHOST`, which the next writer of
/// that output removes (``removeStaleTemporaries(in:named:)``: its process is gone).
///
/// `HOST` is a tag of the writing host's name (8 hex digits), so that on a file system shared by
/// cluster nodes a writer never takes another node's live temporary file for a dead one of its own.
public enum AtomicFile {
    /// Errors name the file and the failing system call.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }

        package init(path: String, reason: String) { self.path = path; self.reason = reason }
    }

    private static let counter = Counter()

    /// Removes the temporary files `.NAME.tmp-PID[-N][-hHOST]` in `folder` (only those of output
    /// `name` when given) of a writer killed between creating its temporary file and renaming it:
    /// written on this host (or without a host tag, as earlier versions named them) by a process that no
    /// longer exists, or written on another host and untouched for ``foreignStaleSeconds``. Files
    /// of live processes (another shard writing right now, here or on another node) and of this
    /// process are left alone.
    /// - Returns: the names removed.
    @discardableResult
    public static func removeStaleTemporaries(in folder: URL, named name: String? = nil) -> [String] {
        let me = Int(getpid())
        var removed: [String] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where entry.hasPrefix(".") {
            guard let marker = entry.range(of: ".tmp-", options: .backwards) else { continue }
            if let name, String(entry[entry.index(after: entry.startIndex)..<marker.lowerBound]) != temporaryStem(name) { continue }
            let fields = entry[marker.upperBound...].split(separator: "-")
            guard let first = fields.first, let pid = Int(first) else { continue }
            let host = fields.dropFirst().last.flatMap { $0.first == "h" && $0.count == 9 ? String($0) : nil }
            let path = folder.appendingPathComponent(entry).path
            if host == nil || host == hostTag {
                guard pid != me, !ProcessProbe.isAlive(pid: pid) else { continue }
            } else {
                var status = stat()
                guard stat(path, &status) == 0,
                        Date().timeIntervalSince1970 - Double(status.st_mtim.tv_sec) > foreignStaleSeconds else { continue }
            }
            if unlink(path) == 0 { removed.append(entry) }
        }
        return removed
    }

    /// How long another host's temporary file must be untouched before it counts as left by a
    /// killed writer (a live writer on another node cannot be probed), seconds: one day.
    public static let foreignStaleSeconds: Double = 86_400

    /// This host's tag in temporary names: `h` and 8 hex digits of the FNV-1a hash of its name.
    static let hostTag: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let name = gethostname(&buffer, buffer.count) == 0 ? String(cString: buffer) : "unknown"
        return "h" + fnv1aHex(name)
    }()

    /// 8 hex digits of the 32-bit FNV-1a hash of `text`'s UTF-8 bytes.
    static func fnv1aHex(_ text: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Longest output name, in UTF-8 bytes, that goes into its temporary name whole: a file name
    /// holds at most 255 bytes, and the temporary name adds a dot and up to 43 bytes
    /// (`.tmp-PID-N-hHOST`).
    static let longestWholeName = 211

    /// The output's name as it appears in its temporary name: the name itself, or, for a name
    /// longer than ``longestWholeName`` bytes, its beginning (whole characters), `~` and the FNV-1a
    /// hash of the whole name, so that the temporary name of a long but valid name is valid too.
    package static func temporaryStem(_ name: String) -> String {
        guard name.utf8.count > longestWholeName else { return name }
        var stem = "", bytes = 0
        for character in name {
            let size = String(character).utf8.count
            guard bytes + size <= longestWholeName - 9 else { break }
            stem.append(character)
            bytes += size
        }
        return stem + "~" + fnv1aHex(name)
    }

    /// The temporary path used for `url`: hidden, in the same folder, unique per process and call.
    public static func temporaryURL(for url: URL) -> URL {
        URL(fileURLWithPath: temporaryPath(for: url.path))
    }

    /// ``temporaryURL(for:)`` for a path: `FOLDER/.NAME.tmp-PID-N-hHOST` (string operations only,
    /// as this runs three times per clip of a mix; NAME shortened when long, ``temporaryStem(_:)``).
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(folder).\(temporaryStem(name)).tmp-\(getpid())-\(counter.next())-\(hostTag)"
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
                let n = Syscalls.write(fd, raw.baseAddress! + written, raw.count - written)
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
