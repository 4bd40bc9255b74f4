#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a process is alive, for telling a killed run from one still going.
package enum ProcessProbe {
    /// True if a process with `pid` exists on this host (`kill(pid, 0)`; EPERM means it exists
    /// but belongs to another user).
    package static func isAlive(pid: Int) -> Bool {
        guard pid > 0, pid <= Int(Int32.max) else { return false }
        if kill(pid_t(pid), 0) == 0 { return true }
        return errno == EPERM
    }
}
