import Foundation

/// Which sample of a room impulse response is its direct path: the sample the reverberant
/// speech and the dry and early targets are aligned on (recorded in `mix.json` as the
/// options' `rirAlignment`).
public enum RIRAlignment: String, Sendable, Codable, CaseIterable {
    /// The largest absolute sample (mixes made before the onset rule; `mix.json` without
    /// `rirAlignment` means this).
    case peak
    /// The first arrival: the first sample whose magnitude is within ``RIRAlignment/onsetThresholdDB``
    /// of the largest (the default).
    case onset

    /// How far below the peak the onset may be, dB: the onset is the first sample with
    /// |h| ≥ 10^(−20/20)·max|h| = 0.1·max|h|. The URGENT challenge's simulation finds an RIR's
    /// start the same way (a level ratio of 0.1); 20 dB is far above the noise floor of measured
    /// responses (60 dB or more below the peak), so noise before the sound never counts, and low
    /// enough that a direct sound weaker than a later reflection (a distant source, an outdoor
    /// response whose ground reflection is louder) still does.
    public static let onsetThresholdDB = 20.0
    /// A peak more than this many seconds after the onset is reported (summary warning, run
    /// parameter `rirs_late_peak`): such responses align very differently under the two rules.
    public static let latePeakSeconds = 0.005

    /// Index of the largest absolute sample (the first one, when several are equally large).
    public static func peakIndex(_ rir: [Float]) -> Int {
        var best = 0, bestValue: Float = -1
        for (i, v) in rir.enumerated() where abs(v) > bestValue { best = i; bestValue = abs(v) }
        return best
    }

    /// Index of the first arrival: the first sample within ``onsetThresholdDB`` of the peak.
    public static func onsetIndex(_ rir: [Float]) -> Int {
        let peak = peakIndex(rir)
        let threshold = abs(rir[peak]) * Float(pow(10, -onsetThresholdDB / 20))
        return rir.firstIndex { abs($0) >= threshold } ?? peak
    }

    /// The direct-path index of `rir` under this rule.
    public func directPathIndex(_ rir: [Float]) -> Int {
        switch self {
        case .peak: Self.peakIndex(rir)
        case .onset: Self.onsetIndex(rir)
        }
    }

    /// Whether the peak of `rir` comes more than ``latePeakSeconds`` after its onset.
    public static func hasLatePeak(_ rir: [Float], sampleRate: Int) -> Bool {
        Double(peakIndex(rir) - onsetIndex(rir)) > latePeakSeconds * Double(sampleRate)
    }
}
