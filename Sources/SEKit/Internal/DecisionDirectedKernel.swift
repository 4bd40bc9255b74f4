import CKernels

/// The per-frame work of the decision-directed enhancers and the special functions of their
/// gains, in C (`CKernels/decision_directed.c`: `sekit_decision_directed_frame`,
/// `sekit_decision_directed_evaluate`): four bins at a time, with no branch, allocation or
/// reference counting in the loop.
///
/// One C source serves every CPU: the AVX2 + FMA build when `VectorKernels.hasAVX2FMA` (fused
/// multiply-adds, so its results differ from the baseline build's by rounding only), else the
/// baseline x86-64 (or other architecture's) build.
enum DecisionDirectedKernel {
    /// The gain G(A, v) of a decision-directed method, A = ξ/(1 + ξ), v = A·γ.
    enum Gain {
        /// G = A.
        case wiener
        /// G = (√π/2)·(A/√v)·[(1 + v)·I₀ₑ(v/2) + v·I₁ₑ(v/2)] (Ephraim & Malah 1984, eq. 7); for v ≤ 1
        /// the bracket is M(−½; 1; −v) by its Taylor series.
        case spectralAmplitude
        /// G = A·exp(½·E1(v)) (Ephraim & Malah 1985, eq. 20).
        case logSpectralAmplitude

        var code: Int32 {
            switch self {
            case .wiener: Int32(SEKIT_GAIN_WIENER)
            case .spectralAmplitude: Int32(SEKIT_GAIN_SPECTRAL_AMPLITUDE)
            case .logSpectralAmplitude: Int32(SEKIT_GAIN_LOG_SPECTRAL_AMPLITUDE)
            }
        }
    }

    /// The constants of the rule (linear power ratios).
    struct Parameters {
        var alpha: Double
        var ksiMin: Double
        var gammaMax: Double
        /// λ is floored here before dividing by it.
        var minimumNoisePower: Double
        /// v is floored here before the gain.
        var minimumV: Double
    }

    /// The voice activity detector's statistics of a frame, over the bins given (the half
    /// spectrum): Σ v and Σ ln(1 + ξ), and both at the first and the last bin.
    struct Statistics {
        var vSum, logSum, vFirst, vLast, logFirst, logLast: Double
    }

    /// One frame of the decision-directed rule, for every bin: γ = min(|Y|²/λ, γmax),
    /// ξ = max(ξmin, α·|Ŝ(l−1)|²/λ + (1 − α)·max(γ − 1, 0)) (unfloored α + (1 − α)·max(γ − 1, 0)
    /// on the first frame), `gain` = G(A, max(v, minimumV)), `previous` ← G²·|Y|².
    /// - Parameters:
    ///   - power: |Y|² of the frame's bins; `noise`: λ; `previous`: |Ŝ(l−1)|², updated; `gain`:
    ///     written. All of the same count.
    ///   - avx2: the AVX2 + FMA build (only where `VectorKernels.hasAVX2FMA`) or the baseline.
    /// - Returns: the detector's statistics (unfloored v) when `detectNoise`, else zeros.
    static func frame(_ kind: Gain, power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>,
                      previous: UnsafeMutableBufferPointer<Double>, gain: UnsafeMutableBufferPointer<Double>,
                      parameters: Parameters, firstFrame: Bool, detectNoise: Bool,
                      avx2: Bool = VectorKernels.hasAVX2FMA) -> Statistics {
        precondition(noise.count == power.count && previous.count == power.count && gain.count == power.count,
                     "DecisionDirectedKernel.frame: buffer sizes")
        precondition(!avx2 || sekit_cpu_has_avx2_fma() != 0, "DecisionDirectedKernel.frame: no AVX2 + FMA here")
        var constants = sekit_decision_directed_parameters(
            alpha: parameters.alpha, ksi_min: parameters.ksiMin, gamma_max: parameters.gammaMax,
            minimum_noise_power: parameters.minimumNoisePower, minimum_v: parameters.minimumV)
        var statistics = sekit_decision_directed_statistics()
        sekit_decision_directed_frame(kind.code, power.baseAddress, noise.baseAddress, previous.baseAddress, gain.baseAddress,
                                      power.count, &constants, firstFrame ? 1 : 0, detectNoise ? 1 : 0, &statistics, avx2 ? 1 : 0)
        return Statistics(vSum: statistics.v_sum, logSum: statistics.log_sum, vFirst: statistics.v_first,
                          vLast: statistics.v_last, logFirst: statistics.log_first, logLast: statistics.log_last)
    }

    /// A function the frame evaluates, with the approximation and error bound it is computed with.
    enum Function {
        /// eˣ for −708 ≤ x ≤ 709 (below −708 taken as −708): Cody & Waite reduction, Taylor series
        /// to r¹²; within 1e-15 of `Foundation.exp`.
        case exponential
        /// exp(E1(x)/2) for x > 0. x ≤ 1: e^(−γ/2)·T(x)/√x with T = exp(S/2) of the series
        /// S = E1 + γ + ln x (Abramowitz & Stegun 5.1.11), as one power series to x¹⁷ (relative
        /// error below 1e-12); above: e^h, h = E1/2 ≤ 0.11, by its Taylor series to h⁸, with E1
        /// from Abramowitz & Stegun 5.1.54 (2e-8 relative on E1, so about 1e-9 on exp(E1/2)).
        case exponentialOfHalfE1
        /// e^(−x)·I₀(x) and e^(−x)·I₁(x) for x > 0 (SciPy `i0e`, `i1e`): Abramowitz & Stegun
        /// 9.8.1–9.8.4; relative error below 5e-7.
        case scaledBesselI0, scaledBesselI1
        /// M(−½; 1; −x) for 0 ≤ x ≤ 1 by its Taylor series to x¹¹ (relative error below 1e-11).
        case confluentHypergeometricMinusHalf
        /// G(A = x, v = y) for v > 0 (not floored).
        case gain(Gain)

        var code: Int32 {
            switch self {
            case .exponential: Int32(SEKIT_FUNCTION_EXPONENTIAL)
            case .exponentialOfHalfE1: Int32(SEKIT_FUNCTION_EXPONENTIAL_OF_HALF_E1)
            case .scaledBesselI0: Int32(SEKIT_FUNCTION_SCALED_BESSEL_I0)
            case .scaledBesselI1: Int32(SEKIT_FUNCTION_SCALED_BESSEL_I1)
            case .confluentHypergeometricMinusHalf: Int32(SEKIT_FUNCTION_CONFLUENT_HYPERGEOMETRIC_MINUS_HALF)
            case .gain(let kind): Int32(SEKIT_FUNCTION_GAIN) + kind.code
            }
        }
    }

    /// `function` at every x (and y, for a gain: the same count), through the frame's own code;
    /// `avx2` picks the AVX2 + FMA build (only where `VectorKernels.hasAVX2FMA`) or the baseline.
    static func evaluate(_ function: Function, _ x: [Double], _ y: [Double]? = nil,
                         avx2: Bool = VectorKernels.hasAVX2FMA) -> [Double] {
        precondition(!avx2 || sekit_cpu_has_avx2_fma() != 0, "DecisionDirectedKernel.evaluate: no AVX2 + FMA here")
        precondition(y.map { $0.count == x.count } ?? true, "DecisionDirectedKernel.evaluate: counts differ")
        let build: Int32 = avx2 ? 1 : 0
        return [Double](unsafeUninitializedCapacity: x.count) { out, count in
            x.withUnsafeBufferPointer { xs in
                if let y {
                    y.withUnsafeBufferPointer { ys in
                        sekit_decision_directed_evaluate(function.code, xs.baseAddress, ys.baseAddress, out.baseAddress, x.count, build)
                    }
                } else {
                    sekit_decision_directed_evaluate(function.code, xs.baseAddress, nil, out.baseAddress, x.count, build)
                }
            }
            count = x.count
        }
    }
}
