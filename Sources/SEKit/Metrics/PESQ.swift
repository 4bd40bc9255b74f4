/// PESQ, Perceptual Evaluation of Speech Quality (ITU-T P.862, with the P.862.1 mapping to
/// MOS-LQO for narrow-band and P.862.2 for wide-band), computed by its ANSI-C reference code:
/// the `pesq` PyPI package (0.0.4) in SEKit's Python worker, called as `pesq.pesq(rate, ref,
/// deg, mode)` on the float64 samples, so every value equals a direct call, bit for bit.
///
/// The reference code's licence forbids translating or adapting it, so SEKit never computes PESQ
/// itself: it sends the samples to the worker and reads the score back.
///
/// Rates: 8 and 16 kHz go in as they are; `pesq_wb` (P.862.2) is defined for 16 kHz only, so
/// `pesq_wb` at 8 kHz is an error for that clip; any other rate is converted to 16 kHz first
/// (``MetricDescriptor/resampledRate``). The reference code's refusals are per-clip errors:
/// "pesq: no utterances detected" (no speech found in the reference), "pesq: the signal is too short".
public enum PESQ {
    /// P.862 mode.
    public enum Mode: String, Sendable {
        /// P.862.2 wide-band (16 kHz), MOS-LQO.
        case wideband = "wb"
        /// P.862 narrow-band with the P.862.1 mapping, MOS-LQO.
        case narrowband = "nb"
    }

    /// The name messages give the reference implementation.
    static let implementation = "pesq"

    /// PESQ MOS-LQO of the comparison, made once per comparison and mode (the composite measures
    /// reuse `pesq_wb`'s value).
    /// - Throws: `MetricError` for wide-band at 8 kHz, or the reference code's refusal.
    public static func compute(_ comparison: MetricComparison, mode: Mode, workspace: MetricWorkspace) throws -> Double {
        try comparison.analysis("pesq.\(mode.rawValue)") {
            Result { () throws -> Double in
                if mode == .wideband && comparison.sampleRate != 16000 {
                    throw MetricError.invalidParameter(name: "sampleRate", value: "\(comparison.sampleRate)",
                        reason: "pesq_wb (P.862.2) is wide-band, defined at 16000 Hz; use pesq_nb for narrow-band audio")
                }
                // The package divides by the peak of both signals and fails on NaN for a silent output.
                guard comparison.processed.contains(where: { $0 != 0 }) else {
                    throw MetricError.undefined(metric: "pesq_\(mode.rawValue)", reason: comparison.likelyCauseOfUndefinedValue)
                }
                let values = try workspace.pythonValues(implementation, "pesq", ["rate": comparison.sampleRate, "mode": mode.rawValue],
                                                        signals: [comparison.reference.samples, comparison.processed])
                return values[0]
            }
        }.get()
    }
}
