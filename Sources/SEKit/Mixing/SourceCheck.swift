import Foundation

/// Checks candidate source files before a mix: each must read, hold at least a minimum
/// duration and not be silent. Unusable files are returned with the reason, never used.
enum SourceCheck {
    static func check(_ candidates: [(path: String, key: String)], kind: MixSource.Kind, sampleRate: Int,
                      jobs: Int, minimumSeconds: Double) -> (usable: [MixSource], skipped: [SkippedSource]) {
        nonisolated(unsafe) var results = [Result<MixSource, SkippedSource>?](repeating: nil, count: candidates.count)
        let lock = NSLock()
        nonisolated(unsafe) var next = 0
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, candidates.count))) { _ in
            while true {
                lock.lock()
                let i = next; next += 1
                lock.unlock()
                if i >= candidates.count { return }
                let (path, key) = candidates[i]
                let outcome: Result<MixSource, SkippedSource>
                do {
                    let buffer = try AudioFile.read(at: URL(fileURLWithPath: path))
                    if buffer.durationSeconds < minimumSeconds {
                        outcome = .failure(SkippedSource(kind: kind, path: path, reason: String(format: "too short (%.3f s < %.3f s)", buffer.durationSeconds, minimumSeconds)))
                    } else if !buffer.samples.contains(where: { $0 != 0 }) {
                        outcome = .failure(SkippedSource(kind: kind, path: path, reason: "silent (all samples are zero)"))
                    } else {
                        outcome = .success(MixSource(kind: kind, path: path, key: key, frames: buffer.count, sampleRate: buffer.sampleRate))
                    }
                } catch {
                    outcome = .failure(SkippedSource(kind: kind, path: path, reason: "\(error)"))
                }
                lock.lock(); results[i] = outcome; lock.unlock()
            }
        }
        var usable: [MixSource] = [], skipped: [SkippedSource] = []
        for result in results {
            switch result! {
            case .success(let s): usable.append(s)
            case .failure(let s): skipped.append(s)
            }
        }
        return (usable, skipped)
    }
}

extension SkippedSource: Error {}
