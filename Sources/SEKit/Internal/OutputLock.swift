import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive claim on an output (a corpus folder's shard, a feature file, a CSV): one process
/// writes it at a time. `flock(2)` on a small lock file: the kernel drops the lock when the
/// process exits, however it exits, so a killed writer never leaves a stale claim. The file
/// holds the owner's pid and host, so a second writer is told who holds it. The owner removes the
/// lock file when it releases the claim (a clean exit leaves no `.NAME.lock` beside the output; a
/// killed writer leaves one, which the next writer takes over). A writer that locked a file another
/// owner removed meanwhile sees that the path no longer names the file it locked and locks again, so
/// two writers never hold two different lock files of one output.
public final class OutputLock: @unchecked Sendable {
    /// Why an output could not be claimed.
    public struct Busy: Error, CustomStringConvertible, Sendable {
        /// The output being written.
        public let output: String
        public let pid: Int?
        public let host: String?
        public var description: String {
            "\(output) is being written by process \(pid.map(String.init) ?? "?") on \(host ?? "?"); "
                + "wait for it to finish, or write elsewhere"
        }
    }

    public let lockFile: URL
    private let descriptor: Int32

    /// Claims `output` through the lock file `lockFile` (created with its folder if needed).
    /// - Throws: ``Busy`` when another process holds it; `AtomicFile.Failure` when the lock file
    ///   cannot be created.
    public init(output: String, lockFile: URL) throws {
        let folder = lockFile.deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw AtomicFile.Failure(path: folder.path, reason: "cannot create the folder: \(Self.systemReason(error))")
        }
        var fd: Int32 = -1
        for attempt in 0... {
            fd = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw AtomicFile.Failure(path: lockFile.path, reason: "open (lock file): \(String(cString: strerror(errno)))")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let failure = errno
                let owner = Self.owner(of: fd)
                close(fd)
                if failure == EWOULDBLOCK { throw Busy(output: output, pid: owner.pid, host: owner.host) }
                throw AtomicFile.Failure(path: lockFile.path, reason: "flock: \(String(cString: strerror(failure)))")
            }
            // The owner before us may have removed the file between our open and our lock: then the
            // path names another file (or none) and the lock we hold guards nothing; lock again.
            var locked = stat(), named = stat()
            if fstat(fd, &locked) == 0, stat(lockFile.path, &named) == 0, locked.st_dev == named.st_dev, locked.st_ino == named.st_ino {
                break
            }
            close(fd)
            if attempt >= 100 { throw AtomicFile.Failure(path: lockFile.path, reason: "the lock file keeps being replaced") }
        }
        let me = "\(getpid()) \(ProcessInfo.processInfo.hostName)\n"
        _ = ftruncate(fd, 0)
        _ = me.withCString { pwrite(fd, $0, strlen($0), 0) }
        self.lockFile = lockFile
        self.descriptor = fd
    }

    // Removed while still locked (so no one else can hold it), then closed, which releases the lock.
    deinit {
        unlink(lockFile.path)
        close(descriptor)
    }

    /// The pid and host written by the process holding the lock.
    private static func owner(of fd: Int32) -> (pid: Int?, host: String?) {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return (nil, nil) }
        let parts = String(decoding: buffer[0..<count], as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
        return (parts.first.flatMap { Int($0) }, parts.count > 1 ? String(parts[1]) : nil)
    }

    /// The operating system's reason inside a Foundation file error (`Read-only file system`),
    /// rather than Foundation's generic sentence.
    static func systemReason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    /// The lock file beside a file output: `FOLDER/.NAME.lock`.
    /// (A name too long to take the prefix and suffix is shortened as in temporary names,
    /// `AtomicFile.temporaryStem(_:)`.)
    public static func lockFile(besideFile url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(AtomicFile.temporaryStem(url.lastPathComponent)).lock")
    }

    /// Claims `shard`'s share of the output folder `folder` (``lockFile(besideFolder:shard:)``),
    /// named `FOLDER (shard i/N)` in messages when sharded.
    public convenience init(folder: URL, shard: Shard) throws {
        try self.init(output: shard == .whole ? folder.path : "\(folder.path) (shard \(shard))",
                      lockFile: Self.lockFile(besideFolder: folder, shard: shard))
    }

    /// The lock file of one shard's share of an output folder that the N shards of one command
    /// write together (one file per clip): `FOLDER/.NAME.lock` unsharded, else
    /// `FOLDER/.NAME.lock-shard-I-of-N`, so shards run side by side while each shard (and the
    /// unsharded run) is still written by one process at a time.
    public static func lockFile(besideFolder url: URL, shard: Shard) -> URL {
        shard == .whole ? lockFile(besideFile: url)
            : url.deletingLastPathComponent()
                .appendingPathComponent(".\(AtomicFile.temporaryStem(url.lastPathComponent)).lock\(shard.fileSuffix)")
    }
}
