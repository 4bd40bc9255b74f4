/// The classical blind single-channel enhancers of `sekit enhance`: each estimates a real gain per
/// time-frequency bin from the noisy signal and a noise estimate alone, applies it to the noisy
/// spectrum (noisy phase) and resynthesises by overlap-add (``BlindEnhancer`` describes the framing).
///
/// |Y|² is the noisy power in a bin, λ the noise power estimate, γ = |Y|²/λ the a posteriori SNR
/// (capped at `gamma-max`) and ξ the a priori SNR, estimated by the decision-directed rule of
/// Ephraim & Malah (1984, eq. 51) as in Loizou's logmmse.m:
/// ξ(l) = max(ξmin, α·|Ŝ(l−1)|²/λ(l) + (1 − α)·max(γ(l) − 1, 0)), and on the first frame
/// ξ(0) = α + (1 − α)·max(γ(0) − 1, 0) (unfloored).
public enum BlindMethod: String, Sendable, CaseIterable, Codable {
    /// Power spectral subtraction with over-subtraction and a spectral floor (Berouti, Schwartz &
    /// Makhoul, "Enhancement of speech corrupted by acoustic noise", ICASSP 1979; Loizou's specsub.m):
    /// |Ŝ|² = max(|Y|² − α·λ, β·λ), α from the frame's SNR by Berouti's rule or fixed, β the floor.
    /// See ``SpectralSubtraction``.
    case specsub
    /// The MMSE short-time spectral amplitude estimator (Ephraim & Malah, IEEE Trans. ASSP 32(6),
    /// 1984, eq. 7), decision-directed ξ (Loizou's mmse.m without speech-presence uncertainty).
    /// See ``ShortTimeSpectralAmplitudeGain``.
    case mmseSTSA = "mmse-stsa"
    /// The MMSE log-spectral amplitude estimator (Ephraim & Malah, IEEE Trans. ASSP 33(2), 1985,
    /// eq. 20), decision-directed ξ, as Loizou's logmmse.m. See ``LogSpectralAmplitudeGain``.
    case logmmse
    /// The Wiener filter G = ξ/(1 + ξ) with decision-directed ξ (Scalart & Vieira Filho, "Speech
    /// enhancement based on a priori signal to noise estimation", ICASSP 1996). See ``WienerGain``.
    case wiener
}

/// How the noise power spectrum λ is estimated.
public enum NoiseEstimateMethod: String, Sendable, CaseIterable, Codable {
    /// The first `leading-seconds` of the signal are taken as noise only: λ is the squared mean
    /// magnitude of the non-overlapping frames that fit in them (Loizou's logmmse.m, mmse.m and
    /// specsub.m use 6 or 5 frames of 20 ms), then updated in frames the method's voice activity
    /// detector declares noise only: λ ← μ·λ + (1 − μ)·|Y|². The decision-directed methods use the
    /// likelihood-ratio detector of logmmse.m (the log-likelihood ratio γξ/(1+ξ) − ln(1+ξ) of Sohn,
    /// Kim & Sung 1999, summed over all FFT bins and divided by the frame length, below
    /// `vad-threshold`; μ = `noise-smoothing`); specsub uses specsub.m's
    /// frame SNR below `specsub-vad-threshold-db` (μ = `specsub-noise-smoothing`). Stationary
    /// noise only: the detector follows slow level changes at best.
    case leading
    /// Minima-controlled recursive averaging (Cohen & Berdugo, "Noise estimation by minima
    /// controlled recursive averaging for robust speech enhancement", IEEE Signal Processing
    /// Letters 9(1), 2002): tracks non-stationary noise from the minima of the smoothed power
    /// spectrum, with no noise-only lead-in. See ``MinimaControlledRecursiveAveraging``.
    case mcra
}
