/// The MMSE short-time spectral amplitude gain (Ephraim & Malah, "Speech enhancement using a
/// minimum mean-square error short-time spectral amplitude estimator", IEEE Trans. ASSP 32(6),
/// 1984, eq. 7; Loizou's mmse.m without speech-presence uncertainty):
///
/// G(ξ, γ) = (√π/2)·(√v/γ)·e^(−v/2)·[(1 + v)·I₀(v/2) + v·I₁(v/2)],  v = ξγ/(1 + ξ),
///
/// evaluated as (√π/2)·(A/√v)·[(1 + v)·I₀ₑ(v/2) + v·I₁ₑ(v/2)] with A = ξ/(1 + ξ) (√v/γ = A/√v)
/// and the exponentially scaled Bessel functions I₀ₑ, I₁ₑ (``DecisionDirectedKernel/Function``),
/// which cannot overflow; for v ≤ 1 the bracket, M(−½; 1; −v), comes from its Taylor series. For
/// large v the gain tends to the Wiener gain A. v is floored at 1e-12 (a bin of zero power gets a
/// large finite gain that multiplies zero).
enum ShortTimeSpectralAmplitudeGain: DecisionDirectedGain {
    static var kernel: DecisionDirectedKernel.Gain { .spectralAmplitude }
}
