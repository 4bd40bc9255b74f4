import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Progress on stderr for long commands: a self-rewriting line with rate and ETA when stderr is a
/// terminal; otherwise a plain line about every 10% (so logs stay readable).
final class ProgressMeter: @unchecked Sendable {
    private let label: String
    private let unit: String
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let start = Date()
    private let lock = NSLock()
    private var lastPrint = Date.distantPast
    private var lastDecile = -1
    private var baseline: Int? = nil

    init(label: String, unit: String = "clips") {
        self.label = label
        self.unit = unit
    }

    /// Reports `done` of `total`. Thread-safe; cheap when called often.
    func update(_ done: Int, of total: Int) {
        lock.lock(); defer { lock.unlock() }
        if baseline == nil { baseline = done }
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        let fresh = done - (baseline ?? 0)
        let rate = elapsed > 0 ? Double(fresh) / elapsed : 0
        let remaining = rate > 0 ? Double(total - done) / rate : .nan
        let percent = total > 0 ? 100 * Double(done) / Double(total) : 100
        if isTerminal {
            guard done == total || now.timeIntervalSince(lastPrint) > 0.1 else { return }
            lastPrint = now
            let line = String(format: "\r%@ %d/%d %@ (%.0f%%)  %.1f %@/s  ETA %@ ", label, done, total, unit, percent, rate, unit,
                              Self.clock(remaining))
            FileHandle.standardError.write(Data(line.utf8))
            if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
        } else {
            let decile = total > 0 ? done * 10 / total : 10
            guard decile != lastDecile else { return }
            lastDecile = decile
            let line = String(format: "%@: %d/%d %@ (%.0f%%), %.1f %@/s\n", label, done, total, unit, percent, rate, unit)
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    private static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%02d:%02d", s / 60, s % 60)
    }
}
