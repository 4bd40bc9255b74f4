/// The MMSE short-time spectral amplitude gain (Ephraim & Malah, "Speech enhancement using a
/// minimum mean-square error short-time spectral amplitude estimator", IEEE Trans. ASSP 32(6),
/// 1984, eq. 7; Loizou's mmse.m without speech-presence uncertainty):
///
/// G(ξ, γ) = (√π/2)·(√v/γ)·e^(−v/2)·[(1 + v)·I₀(v/2) + v·I₁(v/2)],  v = ξγ/(1 + ξ),
///
/// evaluated as (√π/2)·(A/√v)·[(1 + v)·I₀ₑ(v/2) + v·I₁ₑ(v/2)] with A = ξ/(1 + ξ) (√v/γ = A/√v)
/// and the exponentially scaled Bessel functions I₀ₑ, I₁ₑ (``SpecialFunctions``), which cannot
/// overflow; for v ≤ 1 the bracket, M(−½; 1; −v), comes from its Taylor series. For large v the gain tends to the Wiener gain A. v is floored at 1e-12 (a bin of zero
/// power gets a large finite gain that multiplies zero).
enum ShortTimeSpectralAmplitudeGain: DecisionDirectedGain {
    /// √π/2.
    static let halfRootPi = 0.88622692545275801365

    /// Up to this v the bracket is M(−½; 1; −v) by its Taylor series (no exponential; the bins of
    /// noise-only frames), above it e^(−v/2)·[…] by the scaled Bessel functions.
    static let seriesLimit = 1.0

    @inline(__always)
    static func gain(wiener a: Double, v: Double, inverseRootV: Double) -> Double {
        if v <= seriesLimit { return halfRootPi * a * inverseRootV * SpecialFunctions.confluentHypergeometricMinusHalf(v) }
        let (i0, i1) = SpecialFunctions.scaledBesselI0I1(0.5 * v, inverseSquareRoot: 2.0.squareRoot() * inverseRootV)
        return halfRootPi * a * inverseRootV * ((1 + v) * i0 + v * i1)
    }
}
