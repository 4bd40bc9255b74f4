import Foundation
import SEKit

/// The one way `sekit` writes to standard output: every command's records, tables and summary lines.
///
/// A write that fails ends the command: on a closed pipe (`EPIPE`, when SIGPIPE is ignored) quietly,
/// with the status a command killed by SIGPIPE has (141), as Unix tools end when their reader goes
/// away; on any other failure (a full disk, `/dev/full`, an I/O error) with a message on standard
/// error and status 1, so that no output is lost silently. Text is written straight to the file
/// descriptor (`write(2)`), unbuffered, so the order of lines is the order of calls; what other code
/// leaves in the C library's buffer (argument-parser's help) is flushed and checked at exit.
enum StandardOutput {
    /// The status of a command whose reader closed the pipe (128 + SIGPIPE, as the shell reports one killed by it).
    static let brokenPipeStatus: Int32 = 141

    /// Writes `text` completely, or ends the process as the type's documentation says.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Syscalls.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written >= 0 { offset += written; continue }
                let code = errno
                if code == EINTR || code == EAGAIN { continue }
                fail(errno: code)
            }
        }
    }

    /// Flushes what the C library buffered for standard output and ends the process as ``write(_:)``
    /// does when that fails; registered once at start-up to run at exit.
    static func installExitCheck() {
        atexit {
            // fflush(nil) flushes every output stream: standard output is the only one the C library buffers here.
            guard fflush(nil) != 0 else { return }
            let code = errno
            StandardOutput.report(errno: code)
            _exit(code == EPIPE ? StandardOutput.brokenPipeStatus : 1)
        }
    }

    private static func fail(errno code: Int32) -> Never {
        report(errno: code)
        exit(code == EPIPE ? brokenPipeStatus : 1)
    }

    /// The message for a failed write (none for a closed pipe).
    private static func report(errno code: Int32) {
        guard code != EPIPE else { return }
        let message = "Error: cannot write to standard output: \(String(cString: strerror(code)))\n"
        _ = message.withCString { Syscalls.write(STDERR_FILENO, $0, strlen($0)) }
    }
}

/// `Swift.print` for `sekit`'s own code, written through ``StandardOutput`` (so that a failed write
/// is never lost and lines keep their order with the listings written there).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    StandardOutput.write(items.map { "\($0)" }.joined(separator: separator) + terminator)
}
