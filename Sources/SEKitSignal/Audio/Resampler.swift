import Foundation

/// Sample-rate conversion with libsoxr.
public enum Resampler {
    /// libsoxr quality recipes.
    public enum Quality: String, Sendable, CaseIterable, Codable {
        /// `SOXR_MQ`: 16-bit precision, medium roll-off.
        case medium
        /// `SOXR_HQ` (default): 20-bit precision, pass band to 0.913·Nyquist, linear phase.
        case high
        /// `SOXR_VHQ`: 28-bit precision.
        case veryHigh = "very-high"
    }

    /// Resamples `buffer` to `sampleRate` Hz (`soxr_oneshot`, linear phase). The output has
    /// `round(n · new/old)` samples and the same timing (no delay): sample k of the output is at
    /// time k / sampleRate.
    /// - Throws: ``AudioError/invalidParameter(name:value:reason:)`` for a non-positive rate or a soxr failure.
    public static func resample(_ buffer: AudioBuffer, to sampleRate: Int, quality: Quality = .high) throws -> AudioBuffer {
        guard sampleRate > 0 else {
            throw AudioError.invalidParameter(name: "sampleRate", value: "\(sampleRate)", reason: "must be positive")
        }
        guard buffer.sampleRate > 0 else {
            throw AudioError.invalidParameter(name: "buffer.sampleRate", value: "\(buffer.sampleRate)", reason: "must be positive")
        }
        if sampleRate == buffer.sampleRate { return buffer }
        let recipe: UInt = switch quality {
        case .medium: sekit_soxr_mq_value
        case .high: sekit_soxr_hq_value
        case .veryHigh: sekit_soxr_vhq_value
        }
        do {
            let samples = try SoxrResampler.resample(buffer.samples, inputRate: Double(buffer.sampleRate),
                                                     outputRate: Double(sampleRate), recipe: recipe)
            return AudioBuffer(samples: samples, sampleRate: sampleRate)
        } catch {
            throw AudioError.invalidParameter(name: "sampleRate", value: "\(buffer.sampleRate)->\(sampleRate)",
                                              reason: "libsoxr: \(error.message)")
        }
    }
}

extension Resampler {
    /// `samples` at `sampleRate` resampled to `intermediateRate`, passed through `process` there, and
    /// resampled back: as many samples as went in (soxr's rounding of each length is padded with
    /// zeros or trimmed at the end), at lag 0. When the two rates are equal, `process` alone.
    /// - Throws: what `process` throws; ``AudioError/invalidParameter(name:value:reason:)`` from soxr.
    public static func through(_ samples: [Float], sampleRate: Int, intermediateRate: Int, quality: Quality = .high,
                               _ process: ([Float]) throws -> [Float] = { $0 }) throws -> [Float] {
        if intermediateRate == sampleRate { return try process(samples) }
        let down = try resample(AudioBuffer(samples: samples, sampleRate: sampleRate), to: intermediateRate, quality: quality)
        let processed = AudioBuffer(samples: try process(down.samples), sampleRate: intermediateRate)
        var back = try resample(processed, to: sampleRate, quality: quality).samples
        if back.count > samples.count { back.removeLast(back.count - samples.count) }
        if back.count < samples.count { back += repeatElement(0, count: samples.count - back.count) }
        return back
    }
}
