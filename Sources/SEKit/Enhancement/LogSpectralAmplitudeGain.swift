/// The MMSE log-spectral amplitude gain (Ephraim & Malah, "Speech enhancement using a minimum
/// mean-square error log-spectral amplitude estimator", IEEE Trans. ASSP 33(2), 1985, eq. 20;
/// Loizou's logmmse.m):
///
/// G(ξ, γ) = ξ/(1 + ξ) · exp(½·E1(v)),  v = ξγ/(1 + ξ),  E1(v) = ∫ᵥ^∞ e^(−t)/t dt
///
/// (exp(½·E1) as ``DecisionDirectedKernel/Function/exponentialOfHalfE1`` states: relative error
/// about 1e-9, with no call to `exp` below v = 1). v is floored at 1e-12 (a bin of zero power gets
/// a large finite gain that multiplies zero).
enum LogSpectralAmplitudeGain: DecisionDirectedGain {
    static var kernel: DecisionDirectedKernel.Gain { .logSpectralAmplitude }
}
