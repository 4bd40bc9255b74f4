/// DNSMOS: non-intrusive MOS estimates of the DNS Challenge, P.835 SIG, BAK and OVRL (Reddy et
/// al., ICASSP 2022) and P.808 overall quality (Reddy et al., ICASSP 2021), computed in SEKit's
/// Python worker with the ONNX models and feature code that the `speechmos` PyPI package
/// (0.0.1.1) ships, so the values equal `speechmos.dnsmos.run` (its sessions run single-threaded
/// in the worker; one worker per `--jobs`).
///
/// The models take 16 kHz audio (other rates are converted first) in windows of 9.01 s hopped by
/// 1 s, and each output is the mean over the windows. `speechmos`' rule for short clips applies:
/// a clip shorter than 9.01 s is repeated (concatenated with itself until it is at least that
/// long) before windowing. Samples must lie in [−1, 1] (speechmos refuses others): beyond, a per-clip
/// error, or the signal clipped or scaled as the workspace's ``FullScalePolicy`` says.
public enum DNSMOS {
    /// The model's rate, Hz.
    static let sampleRate = 16000

    /// SIG, BAK, OVRL, P.808 of the processed signal (no reference is used).
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` when speechmos refuses it.
    public static func compute(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Double] {
        try workspace.pythonValues("dnsmos", "dnsmos", ["rate": comparison.sampleRate],
                                   signals: [try workspace.withinFullScale(comparison.processed, for: "dnsmos")])
    }
}
