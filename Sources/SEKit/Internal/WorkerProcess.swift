import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process spoken to over its stdin and stdout: requests written as bytes, responses
/// read back line by line. Used for the reference implementations that run in Python (PESQ's ITU
/// code through the `pesq` package, DNSMOS's ONNX models).
///
/// The pipes are made close-on-exec, so a worker started later does not inherit another worker's
/// stdin (which would keep it from ever seeing end-of-file). The child's stderr goes to a
/// temporary file whose last lines explain a death. Dropping the value closes the child's stdin
/// (a well-behaved worker exits on end-of-file) and reaps it.
///
/// The child is reaped with `waitpid(2)` here, never through `Process.waitUntilExit()` or
/// `isRunning`: Foundation on Linux learns of a child's exit from a socket the child inherits, which
/// another process that inherits it too keeps open (swift-corelibs-foundation issue 4795), so with two
/// workers it could miss the first one's exit and wait forever (a `score --jobs 2` that never ended,
/// its first worker a zombie).
final class WorkerProcess {
    /// Why talking to the child failed: it died, did not answer in time (it was then killed), or a
    /// system call failed.
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        /// True when the child did not read or answer before the deadline.
        var timedOut = false
        var description: String { reason }
    }

    private let process = Process()
    private let requests: Int32
    private let responses: Int32
    private let stderrFile: URL
    private var pending: [UInt8] = []
    /// Scratch for `read(2)`, kept between responses.
    private var chunk = [UInt8](repeating: 0, count: 65536)
    private(set) var hasExited = false
    /// How the child ended, once reaped: by a signal (its number) or with an exit status.
    private var termination: (signaled: Bool, code: Int32)?

    /// Starts `executable` with `arguments` (and `environment` added to this process's).
    /// - Throws: ``Failure`` when the pipes cannot be made or the executable cannot be started.
    init(executable: URL, arguments: [String], environment: [String: String] = [:]) throws(Failure) {
        _ = Self.ignoreBrokenPipes
        // Workers are started one at a time, so no other worker is spawned between making a pipe
        // and marking it close-on-exec.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw Failure(reason: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw Failure(reason: "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // Our ends never block: a child that stops reading or answering is waited for with poll(2)
        // until a deadline.
        for fd in [toChild[1], fromChild[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        requests = toChild[1]
        responses = fromChild[0]
        stderrFile = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-worker-\(getpid())-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let childIn = FileHandle(fileDescriptor: toChild[0], closeOnDealloc: true)
        let childOut = FileHandle(fileDescriptor: fromChild[1], closeOnDealloc: true)
        process.standardInput = childIn
        process.standardOutput = childOut
        process.standardError = FileHandle(forWritingAtPath: stderrFile.path)
        do {
            try process.run()
        } catch {
            close(requests); close(responses)
            try? FileManager.default.removeItem(at: stderrFile)
            throw Failure(reason: "cannot start \(executable.path): \(error.localizedDescription)")
        }
        // The child has its copies; ours must go, or end-of-file never reaches either side.
        try? childIn.close()
        try? childOut.close()
    }

    /// How long a child has to exit after its stdin is closed before it is killed, seconds.
    static let exitGraceSeconds: Double = 5

    deinit {
        close(requests)
        // A well-behaved worker exits on end-of-file; one that does not is killed.
        reapOrKill(within: Self.exitGraceSeconds)
        close(responses)
        try? FileManager.default.removeItem(at: stderrFile)
    }

    /// Writes `parts` to the child's stdin, in order, by `deadline`.
    /// - Throws: ``Failure`` when the child has gone (its exit status and last stderr lines), or
    ///   has not read them by `deadline` (it is then killed).
    func write(_ parts: [UnsafeRawBufferPointer], deadline: Date = .distantFuture) throws {
        for part in parts {
            guard var base = part.baseAddress else { continue }
            var left = part.count
            while left > 0 {
                let n = Syscalls.write(requests, base, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        try wait(for: requests, events: Int16(POLLOUT), until: deadline)
                        continue
                    }
                    throw deathOrError("write")
                }
                left -= n
                base += n
            }
        }
    }

    /// The next line the child writes to stdout, without the newline, by `deadline`.
    /// - Throws: ``Failure`` when the child closes stdout (it died), reading fails, or no line
    ///   came by `deadline` (the child is then killed).
    func readLine(deadline: Date = .distantFuture) throws -> [UInt8] {
        var scanned = 0  // bytes of `pending` known to hold no newline
        while true {
            if let newline = pending[scanned...].firstIndex(of: 10) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            scanned = pending.count
            try readChunk(deadline: deadline)
        }
    }

    /// The next `count` bytes the child writes to stdout, by `deadline` (a binary payload after a line).
    /// - Throws: ``Failure`` as ``readLine(deadline:)``.
    func read(count: Int, deadline: Date = .distantFuture) throws -> [UInt8] {
        while pending.count < count { try readChunk(deadline: deadline) }
        let bytes = Array(pending[..<count])
        pending.removeSubrange(..<count)
        return bytes
    }

    /// Appends what the child has written to stdout to `pending`, waiting for it until `deadline`.
    private func readChunk(deadline: Date) throws {
        while true {
            let n = chunk.withUnsafeMutableBytes { Syscalls.read(responses, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    try wait(for: responses, events: Int16(POLLIN), until: deadline)
                    continue
                }
                throw deathOrError("read")
            }
            if n == 0 { throw deathOrError(nil) }
            pending.append(contentsOf: chunk[0..<n])
            return
        }
    }

    /// Waits (`poll(2)`) until `fd` is ready for `events` (or hung up); past `deadline` the child is
    /// killed and a timed-out ``Failure`` thrown.
    private func wait(for fd: Int32, events: Int16, until deadline: Date) throws {
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                reapOrKill(within: 0)
                throw Failure(reason: "no answer in time: the worker was killed", timedOut: true)
            }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = Int32(min(left * 1000, Double(Int32.max)).rounded(.up))
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw deathOrError("poll") }
        }
    }

    /// The failure to report after `call` failed (nil: end of file): the child's death when it
    /// has exited (status or signal, and the end of its stderr), else the system error.
    private func deathOrError(_ call: String?) -> Failure {
        let error = call.map { "\($0): \(String(cString: strerror(errno)))" }
        if call == nil || errno == EPIPE {
            // It closed its end: it is exiting (one that lingers is killed).
            reapOrKill(within: Self.exitGraceSeconds)
            let how = termination.map { $0.signaled ? "killed by signal \($0.code)" : "exited with status \($0.code)" }
                ?? "exited"
            let tail = stderrTail()
            return Failure(reason: "the worker \(how)" + (tail.isEmpty ? "" : ": \(tail)"))
        }
        return Failure(reason: error ?? "end of file")
    }

    /// Waits up to `seconds` for the child to exit, then kills it (`SIGKILL`) and waits for that;
    /// records how it ended.
    private func reapOrKill(within seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while !reap(blocking: false) && Date() < deadline { usleep(10_000) }
        if !reap(blocking: false) {
            kill(process.processIdentifier, SIGKILL)
            _ = reap(blocking: true)
        }
        hasExited = true
    }

    /// Whether the child has ended (and is reaped): `waitpid(2)` on it, waiting when `blocking`.
    private func reap(blocking: Bool) -> Bool {
        guard termination == nil else { return true }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(process.processIdentifier, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        if result == process.processIdentifier {
            // WIFEXITED: no signal bits; WEXITSTATUS: the next byte. Otherwise WTERMSIG.
            termination = status & 0x7f == 0 ? (false, (status >> 8) & 0xff) : (true, status & 0x7f)
            return true
        }
        if result < 0 && errno == ECHILD {  // reaped by Foundation's own monitor first
            termination = process.isRunning ? (false, -1)
                : (process.terminationReason == .uncaughtSignal, process.terminationStatus)
            return true
        }
        return false
    }

    /// The last non-empty lines of the child's stderr (at most 400 characters), for messages.
    func stderrTail() -> String {
        guard let data = FileManager.default.contents(atPath: stderrFile.path) else { return "" }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let text = lines.filter { !$0.isEmpty }.suffix(3).joined(separator: " | ")
        return text.count > 400 ? "..." + String(text.suffix(400)) : text
    }

    private static let spawnLock = NSLock()

    /// A child that dies while we write must give an error, not kill this process with SIGPIPE.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
}
