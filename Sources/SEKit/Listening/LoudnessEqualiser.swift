import Foundation

/// Scales a stimulus to an integrated loudness (ITU-R BS.1770-4 / EBU R128, gated, through
/// libebur128: `Levels.loudnessLUFS(_:sampleRate:)`), for `listen make --loudness-lufs`.
enum LoudnessEqualiser {
    /// How close to the target the scaled signal's measured loudness must be before a second,
    /// corrective gain is applied, LU (the absolute −70 LUFS gate can let other blocks in once the
    /// level changes, so loudness is not exactly linear in the gain).
    static let toleranceLU = 0.01

    /// `samples` scaled to `targetLUFS` and the gain applied, dB. Samples beyond full scale are kept
    /// (the 16-bit writer clips and counts them).
    /// - Throws: ``ListenError/invalidOption(name:value:reason:)`` naming `label` when the loudness
    ///   cannot be measured (silence, or under one 400 ms gating block).
    static func scale(_ samples: [Float], sampleRate: Int, toLUFS targetLUFS: Double, label: String) throws -> ([Float], Double) {
        func unmeasurable() -> ListenError {
            ListenError.invalidOption(
                name: "loudness-lufs", value: ReportNumber.fixed(targetLUFS, decimals: 1),
                reason: "\(label) has no measurable loudness (silent, or shorter than BS.1770's 400 ms block); it cannot be equalised")
        }
        let measured = try Levels.loudnessLUFS(samples, sampleRate: sampleRate)
        guard measured.isFinite else { throw unmeasurable() }
        var gainDB = targetLUFS - measured
        var scaled = apply(gainDB, to: samples)
        let check = try Levels.loudnessLUFS(scaled, sampleRate: sampleRate)
        guard check.isFinite else { throw unmeasurable() }
        if abs(check - targetLUFS) > toleranceLU {
            gainDB += targetLUFS - check
            scaled = apply(gainDB, to: samples)
        }
        return (scaled, gainDB)
    }

    static func apply(_ gainDB: Double, to samples: [Float]) -> [Float] {
        let gain = Float(pow(10, gainDB / 20))
        return samples.map { $0 * gain }
    }
}
