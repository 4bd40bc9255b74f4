import Foundation

/// What the metrics whose reference implementation takes samples in [−1, 1] only (DNSMOS, personalised
/// DNSMOS, PLCMOS: `speechmos` refuses anything else) do with a signal that goes beyond full scale, as
/// decoded MP3 or Vorbis recordings and float outputs often do (`sekit score --full-scale`). The
/// other metrics always see the signal as it is.
public enum FullScalePolicy: String, Sendable, CaseIterable, Codable {
    /// Those metrics fail for the clip, naming the peak and this choice (the default: nothing is changed silently).
    case refuse
    /// Samples beyond ±1 are set to ±1 (what a 16-bit file of the signal would hold).
    case clip
    /// The whole signal is divided by its peak magnitude, so the peak is 1 (the waveform's shape kept).
    case scale
}

extension MetricWorkspace {
    /// `samples` as `implementation` may take them: unchanged within [−1, 1]; beyond, refused, clipped
    /// or scaled to a peak of 1 as ``fullScale`` says, what was done noted in ``fullScaleNotes``.
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` under ``FullScalePolicy/refuse``.
    func withinFullScale(_ samples: [Float], for implementation: String) throws -> [Float] {
        var peak: Float = 0
        for sample in samples where abs(sample) > peak { peak = abs(sample) }
        guard peak > 1 else { return samples }
        let peakText = ReportNumber.fixed(Double(peak), decimals: 4)
        switch fullScale {
        case .refuse:
            throw MetricError.referenceImplementation(
                name: implementation,
                reason: "samples outside [-1, 1] (peak \(peakText); speechmos refuses them: --full-scale clip or scale scores them)")
        case .clip:
            let beyond = samples.reduce(0) { $0 + (abs($1) > 1 ? 1 : 0) }
            noteFullScale("clipped \(beyond) samples beyond full scale (peak \(peakText))")
            return samples.map { min(1, max(-1, $0)) }
        case .scale:
            noteFullScale("scaled by \(ReportNumber.fixed(Double(1 / peak), decimals: 4)) to a peak of 1 (peak \(peakText))")
            return samples.map { $0 / peak }
        }
    }
}
