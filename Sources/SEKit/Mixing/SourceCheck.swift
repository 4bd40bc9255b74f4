import Foundation

/// Checks candidate source files before a mix: each must read, hold at least a minimum
/// duration and not be silent. Unusable files are returned with the reason, never used. Usable
/// files are hashed (SHA-256 of their bytes), so that a corpus re-rendered from its manifest can
/// tell a changed source (`mix.json` `sources`).
enum SourceCheck {
    static func check(_ candidates: [(path: String, key: String)], kind: MixSource.Kind, sampleRate: Int,
                      jobs: Int, minimumSeconds: Double) -> (usable: [MixSource], skipped: [SkippedSource]) {
        let results = ParallelMap.map(candidates, jobs: jobs) { candidate -> Result<MixSource, SkippedSource> in
            let (path, key) = candidate
            do {
                let buffer = try AudioFile.read(at: URL(fileURLWithPath: path))
                if buffer.durationSeconds < minimumSeconds {
                    return .failure(SkippedSource(kind: kind, path: path, reason: String(format: "too short (%.3f s < %.3f s)",
                                                                                         buffer.durationSeconds, minimumSeconds)))
                }
                if !buffer.samples.contains(where: { $0 != 0 }) {
                    return .failure(SkippedSource(kind: kind, path: path, reason: "silent (all samples are zero)"))
                }
                var source = MixSource(kind: kind, path: path, key: key, frames: buffer.count, sampleRate: buffer.sampleRate)
                source.sha256 = try SHA256.hex(ofFileAt: URL(fileURLWithPath: path))
                return .success(source)
            } catch {
                return .failure(SkippedSource(kind: kind, path: path, reason: FilePaths.reason(error, at: path)))
            }
        }
        var usable: [MixSource] = [], skipped: [SkippedSource] = []
        for result in results {
            switch result {
            case .success(let s): usable.append(s)
            case .failure(let s): skipped.append(s)
            }
        }
        return (usable, skipped)
    }
}

extension SkippedSource: Error {}
