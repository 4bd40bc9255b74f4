/// The quality predictors run in SEKit's Python worker as their packages publish them (the
/// worker's operations of the same names; docs/scoring-and-metrics.md):
///
/// - PLCMOS v2 (Diener et al., Interspeech 2023), `speechmos` 0.0.1.1's `plcmos_v2.onnx`: the mean
///   over 15 random rater embeddings, drawn from numpy's generator seeded with 0 before each clip,
///   so a clip's value is the same whatever was scored before it. No reference.
/// - Personalised DNSMOS P.835 (`speechmos.dnsmos.run(..., model_type="dnsmos_personalized")`):
///   SIG, BAK, OVRL of the `pdnsmos_models/sig_bak_ovr.onnx` model, in DNSMOS's windows (9.01 s,
///   hopped by 1 s; a shorter clip repeated). No reference. The P.808 part the package computes and
///   the personalised result drops is skipped (the same SIG, BAK, OVRL, faster).
/// - ViSQOL v3 (Chinen et al., QoMEX 2020), `visqol-python` 3.8.0's `VisqolApi.measure_from_arrays`:
///   speech mode at 16 kHz with the lattice model (ViSQOL's default, through `ai-edge-litert`), audio
///   mode at 48 kHz with the SVR model. A clip too short for its spectrogram is a per-clip error.
/// - Distill-MOS (Stahl & Gamper, 2025), `distillmos` 0.9.1's `ConvTransformerSQAModel` on float32
///   samples, one PyTorch thread; its convolutions and transformer exported once to ONNX (cached by the
///   weights' SHA-256, checked against the package on export) and run by ONNX Runtime. No reference.
///
/// Other rates are converted first (SEKit's soxr resampler); samples outside [−1, 1] are a per-clip
/// error for the `speechmos` predictors (the package refuses them).
public enum QualityPredictors {
    /// The rate of the speech predictors and of ViSQOL's speech mode, Hz.
    static let speechRate = 16000
    /// The rate of ViSQOL's audio mode, Hz.
    static let audioRate = 48000

    /// PLCMOS v2 of the processed signal.
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` when speechmos refuses it.
    public static func plcmos(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Double] {
        try workspace.pythonValues("plcmos", "plcmos", ["rate": comparison.sampleRate],
                                   signals: [try workspace.withinFullScale(comparison.processed, for: "plcmos")])
    }

    /// Personalised DNSMOS SIG, BAK, OVRL of the processed signal.
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` when speechmos refuses it.
    public static func personalizedDNSMOS(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Double] {
        try workspace.pythonValues("dnsmos_personalized", "dnsmos_personalized", ["rate": comparison.sampleRate],
                                   signals: [try workspace.withinFullScale(comparison.processed, for: "dnsmos_personalized")])
    }

    /// ViSQOL MOS-LQO of the processed signal against the reference, in `mode` (`speech`, `audio`).
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` when visqol refuses the pair.
    public static func visqol(_ comparison: MetricComparison, mode: String, workspace: MetricWorkspace) throws -> [Double] {
        try workspace.pythonValues("visqol_\(mode)", "visqol", ["rate": comparison.sampleRate, "mode": mode],
                                   signals: [comparison.reference.samples, comparison.processed])
    }

    /// Distill-MOS of the processed signal.
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` when the model fails.
    public static func distillMOS(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Double] {
        try workspace.pythonValues("distillmos", "distillmos", ["rate": comparison.sampleRate], signals: [comparison.processed])
    }

    /// Speaker similarity: the cosine of the Resemblyzer embeddings of the reference and the processed signal.
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` when a signal has nothing to embed.
    public static func speakerSimilarity(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Double] {
        try workspace.pythonValues("speaker_similarity", "speaker_similarity", ["rate": comparison.sampleRate],
                                   signals: [comparison.reference.samples, comparison.processed])
    }

    /// Word and character error rates of the processed signal's pocketsphinx transcript against the clean
    /// reference's.
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` when the reference's transcript is empty.
    public static func asrVersusClean(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Double] {
        try workspace.pythonValues("asr_vs_clean", "asr_vs_clean", ["rate": comparison.sampleRate],
                                   signals: [comparison.reference.samples, comparison.processed])
    }

    /// Word and character error rates of the processed signal's pocketsphinx transcript against the
    /// clip's transcript from the transcript file (`MetricComparison.transcript`).
    /// - Throws: `MetricError.undefined(metric:reason:)` when the clip has no transcript (no file given,
    ///   no line, several lines); `MetricError.referenceImplementation(name:reason:)` for an empty one.
    public static func asr(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Double] {
        switch comparison.transcript {
        case nil:
            throw MetricError.undefined(metric: "wer", reason: "no transcript file was given (--transcripts FILE.tsv); "
                                        + "wer_vs_clean scores against the clean reference's transcript instead")
        case let .unavailable(reason)?:
            throw MetricError.undefined(metric: "wer", reason: reason)
        case let .text(text)?:
            return try workspace.pythonValues("asr", "asr", ["rate": comparison.sampleRate, "text": text], signals: [comparison.processed])
        }
    }
}
