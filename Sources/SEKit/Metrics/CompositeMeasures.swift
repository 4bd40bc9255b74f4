/// The composite measures of Hu & Loizou, "Evaluation of objective quality measures for speech
/// enhancement" (IEEE TASLP 16(1), 2008, Eqs. 11–13; `composite.m` of Loizou's "Speech
/// Enhancement: Theory and Practice"): linear regressions of listener ratings on objective
/// measures, each limited to [1, 5].
///
///     CSIG = 3.093 − 1.029·LLR + 0.603·PESQ − 0.009·WSS           (signal distortion)
///     CBAK = 1.634 + 0.478·PESQ − 0.007·WSS + 0.063·segSNR        (background intrusiveness)
///     COVL = 1.594 + 0.805·PESQ − 0.512·LLR − 0.007·WSS           (overall quality)
///
/// Inputs, as composite.m computes them: WSS (`WeightedSpectralSlope`) and LLR are the means of
/// the lowest 95% of their frame values; segSNR is the mean of the frame SNRs limited to
/// [−10, 35] dB (`SegmentalSNR`). The composite's LLR differs from the stand-alone `llr`
/// (comp_llr.m): composite.m does not limit a frame's LLR to 2, so frames above 2 count in full
/// (on the noisy pair of Loizou's example, 1.3155 inside the composite, 1.2531 stand-alone). Without
/// that limit, frames of digital silence in the clean signal (eps × window after composite.m adds
/// eps, e.g. zero padding) count with LLRs of ~20 whose Double rounding is off by up to ~0.06
/// (MATLAB, numpy, SEKit's stand-alone `llr` alike); the composite's LLR is therefore computed in
/// double-double, within 1e-13 of exact arithmetic per frame (`LPCMeasures.llr(reference:processed:sampleRate:frameLimit:arithmetic:)`).
/// PESQ is wide-band P.862.2 MOS-LQO (``PESQ``, `pesq_wb`), the convention of SEGAN, the DEMUCS
/// denoiser and SpeechBrain's VoiceBank-DEMAND recipes (Hu & Loizou fitted the regressions to
/// narrow-band raw PESQ; values from the two conventions are not comparable). Signals at rates
/// other than 16 kHz are converted to 16 kHz first, and all four inputs are computed there.
public enum CompositeMeasures {
    /// CSIG, CBAK, COVL from their inputs, each limited to [1, 5].
    public static func combine(pesq: Double, llr: Double, wss: Double, segsnr: Double) -> (csig: Double, cbak: Double, covl: Double) {
        func limited(_ x: Double) -> Double { min(5, max(1, x)) }
        let csig = 3.093 - 1.029 * llr + 0.603 * pesq - 0.009 * wss
        let cbak = 1.634 + 0.478 * pesq - 0.007 * wss + 0.063 * segsnr
        let covl = 1.594 + 0.805 * pesq - 0.512 * llr - 0.007 * wss
        return (limited(csig), limited(cbak), limited(covl))
    }

    /// CSIG, CBAK, COVL of one comparison (PESQ, WSS and segSNR shared with `pesq_wb`, `wss` and
    /// `segsnr` when those are asked for too).
    /// - Throws: `MetricError` from any of the four inputs.
    public static func compute(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Double] {
        let pesq = try PESQ.compute(comparison, mode: .wideband, workspace: workspace)
        let reference = comparison.reference.samples, processed = comparison.processed, rate = comparison.sampleRate
        let llr = try LPCMeasures.llr(reference: reference, processed: processed, sampleRate: rate, frameLimit: nil,
                                      arithmetic: .doubleDouble)
        let wss = try WeightedSpectralSlope.compute(comparison)
        let segsnr = try SegmentalSNR.compute(comparison)
        let c = combine(pesq: pesq, llr: llr, wss: wss, segsnr: segsnr)
        return [c.csig, c.cbak, c.covl]
    }
}
