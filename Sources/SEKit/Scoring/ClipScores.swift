import Foundation

/// Scores of one clip.
public struct ClipScores: Sendable {
    public var pair: ScorePair
    /// Metric values of the enhanced signal against the reference.
    public var enhanced: [Metric: Double] = [:]
    /// Metric values of the noisy input against the reference (when the noisy input is known).
    public var noisy: [Metric: Double] = [:]
    /// Why the clip could not be scored at all (nil when it was): unreadable files, rate or
    /// length mismatch.
    public var error: String?
    /// Metrics that have no value for the enhanced signal of this clip, with the reason (a silent
    /// reference, a silent or constant output, too short); the clip's other metrics are kept.
    public var metricErrors: [Metric: String] = [:]
    /// The same for the noisy input.
    public var noisyMetricErrors: [Metric: String] = [:]
    /// The clip's own rate when some metric converted it (PESQ at 44.1 kHz → 16 kHz), Hz.
    public var resampledFromHz: Int?
    /// What `--full-scale clip|scale` did to a signal beyond full scale for the metrics that take [−1, 1]
    /// only (`clipped 12 samples beyond full scale (peak 1.0312)`; `noisy: ...` for the noisy input); nil: nothing.
    public var fullScale: String?

    /// Metric values of this clip that could not be computed (enhanced and noisy).
    public var failedValues: Int { metricErrors.count + noisyMetricErrors.count }

    /// The values that could not be computed, in metric-name order: `sisdr: reason; noisy estoi: reason`.
    public var valueErrorSummary: String {
        let enhanced = metricErrors.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key): \($0.value)" }
        let noisy = noisyMetricErrors.sorted { $0.key.rawValue < $1.key.rawValue }.map { "noisy \($0.key): \($0.value)" }
        return (enhanced + noisy).joined(separator: "; ")
    }

    /// Enhanced minus noisy, for metrics where both are known.
    public var improvement: [Metric: Double] {
        var result: [Metric: Double] = [:]
        for (metric, value) in enhanced { if let base = noisy[metric] { result[metric] = value - base } }
        return result
    }
}
