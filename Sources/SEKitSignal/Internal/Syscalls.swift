#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("SEKit needs a POSIX C library (Glibc, Musl or Darwin)")
#endif

/// The POSIX system calls SEKit names by module (`write`, `read`, `open`, `close`, `fsync`): one file
/// with the platform branches, so that no other file writes `Glibc.` or `Darwin.`. Each returns what
/// the call returns and leaves `errno` as the call set it; callers handle `EINTR` and short counts.
///
/// Built and tested on Linux (Glibc); the Darwin and Musl branches are declared, not tested here.
package enum Syscalls {
    /// `write(2)`: bytes written, or -1 with `errno` set.
    @inline(__always)
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    /// `read(2)`: bytes read (0 at the end), or -1 with `errno` set.
    @inline(__always)
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    /// `open(2)` without a mode (no `O_CREAT`): a descriptor, or -1 with `errno` set.
    package static func open(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags)
        #elseif canImport(Musl)
        Musl.open(path, flags)
        #else
        Darwin.open(path, flags)
        #endif
    }

    /// `close(2)`.
    @discardableResult
    package static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #elseif canImport(Musl)
        Musl.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }

    /// Flushes the file at `path` to stable storage (`open` read-only, `fsync`, `close`); false when it
    /// cannot be opened.
    @discardableResult
    package static func fsyncFile(atPath path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        _ = fsync(fd)
        close(fd)
        return true
    }
}
