import Foundation

/// The special functions of the Ephraim–Malah gains, in Double, as fixed polynomial and rational
/// forms (no iteration to convergence) for the per-bin hot loops.
enum SpecialFunctions {
    /// Euler–Mascheroni constant γ.
    static let eulerGamma = 0.57721566490153286061

    /// The exponential integral E1(x) = ∫ₓ^∞ e^(−t)/t dt for x > 0 (MATLAB `expint`, SciPy
    /// `exp1` / `expn(1, x)`).
    ///
    /// - x ≤ 1: the series E1(x) = −γ − ln x − Σₖ (−x)^k/(k·k!) (Abramowitz & Stegun 5.1.11), see
    ///   ``e1Series(_:)``; relative error about 2e-15 against SciPy.
    /// - x > 1: the rational approximation x·eˣ·E1(x) ≈ P₄(x)/Q₄(x) (Abramowitz & Stegun 5.1.54,
    ///   Hastings), see ``e1Rational(_:)``; relative error below 2e-8.
    static func exponentialIntegralE1(_ x: Double) -> Double {
        x <= 1 ? -eulerGamma - log(x) + e1Series(x) : e1Rational(x)
    }

    /// exp(E1(x)/2) for x > 0, the factor of the log-spectral amplitude gain, with no call to
    /// `exp` below x = 1: there E1(x) = −γ − ln x + S(x), so exp(E1/2) = e^(−γ/2)·T(x)/√x with
    /// T = exp(S/2) (``halfExponentialOfSeries(_:)``); above, e^h with h = E1(x)/2 ≤ 0.11 (the
    /// rational E1) by its Taylor series to h⁸ (truncation below 1e-14 relative, far under the
    /// rational E1's 2e-8), with no range
    /// reduction. `inverseSquareRoot` is 1/√x, which the caller usually has already.
    @inline(__always)
    static func exponentialOfHalfE1(_ x: Double, inverseSquareRoot: Double) -> Double {
        if x <= 1 { return halfGammaFactor * halfExponentialOfSeries(x) * inverseSquareRoot }
        let h = 0.5 * e1Rational(x), h2 = h * h, h4 = h2 * h2
        let low = (1 + h) + h2 * (1.0 / 2 + h * (1.0 / 6))
        let high = (1.0 / 24 + h * (1.0 / 120)) + h2 * (1.0 / 720 + h * (1.0 / 5040)) + h4 * (1.0 / 40320)
        return low + h4 * high
    }

    /// e^(−γ/2).
    static let halfGammaFactor = 0.749306001288449

    /// T(x) = exp(S(x)/2) for 0 ≤ x ≤ 1 (S of ``e1Series(_:)``), as one power series truncated
    /// after x¹⁷ (relative error below 1e-12): the exponential of a power series, e₀ = 1,
    /// eₙ = (1/n)·Σₖ₌₁ⁿ k·(sₖ/2)·eₙ₋ₖ with sₖ = (−1)^(k+1)/(k·k!) (e₂ is 0). Estrin's scheme.
    @inline(__always)
    static func halfExponentialOfSeries(_ x: Double) -> Double {
        let x2 = x * x, x4 = x2 * x2, x8 = x4 * x4, x16 = x8 * x8
        let q0 = 1.0 + x * 0.5                                          // e0, e1
        let q1 = 0.0 + x * -0.013888888888888888                        // e2 = 0, e3 = −1/72
        let q2 = 0.003472222222222222 + x * -0.00020833333333333335     // 1/288, −1/4800
        let q3 = -0.0001234567901234568 + x * 4.58632527084908e-05      // −1/8100, 233/5080320
        let q4 = -7.071404950869236e-06 + x * -1.8435336240120192e-07   // e8, e9
        let q5 = 3.9635881787557275e-07 + x * -1.0999048204247519e-07   // e10, e11
        let q6 = 1.4754986700365727e-08 + x * 5.403214715436434e-10     // e12, e13
        let q7 = -8.231092662383478e-10 + x * 2.265179424191189e-10     // e14, e15
        let q8 = -3.340319871854808e-11 + x * 5.43810386041889e-13      // e16, e17
        let r0 = q0 + x2 * q1, r1 = q2 + x2 * q3, r2 = q4 + x2 * q5, r3 = q6 + x2 * q7
        return (r0 + x4 * r1) + x8 * (r2 + x4 * r3) + x16 * q8
    }

    /// e^y for y ≤ 709 (y below −708 is taken as −708, e^−708 ≈ 3e-308), inlined, with no table:
    /// y = n·ln 2 + r with n the nearest integer to y/ln 2 and |r| ≤ ln 2 / 2 (Cody & Waite's
    /// two-part ln 2, the fdlibm constants), e^r by its Taylor series to r¹² (Estrin's scheme;
    /// truncation below 2e-16), times 2ⁿ built from its bits. Within 1e-15 of `Foundation.exp`.
    @inline(__always)
    static func exponential(_ value: Double) -> Double {
        let y = max(value, -708)
        let roundingShift = 6_755_399_441_055_744.0  // 1.5·2⁵²: adding it rounds to an integer
        let nearest = (y * 1.4426950408889634 + roundingShift) - roundingShift
        let r = (y - nearest * 6.93147180369123816490e-01) - nearest * 1.90821492927058770002e-10
        let r2 = r * r, r4 = r2 * r2, r8 = r4 * r4
        // Taylor coefficients 1/k!, k = 0...12.
        let low = (1 + r) + r2 * (1.0 / 2 + r * (1.0 / 6))
        let middle = (1.0 / 24 + r * (1.0 / 120)) + r2 * (1.0 / 720 + r * (1.0 / 5040))
        let high = (1.0 / 40320 + r * (1.0 / 362_880)) + r2 * (1.0 / 3_628_800 + r * (1.0 / 39_916_800)) + r4 * (1.0 / 479_001_600)
        let power = low + r4 * middle + r8 * high
        let scale = Double(bitPattern: UInt64(Int(nearest) + 1023) << 52)
        return power * scale
    }

    /// S(x) = E1(x) + γ + ln x = Σₖ₌₁¹⁷ (−1)^(k+1)·x^k/(k·k!) for 0 ≤ x ≤ 1 (the 18th term is
    /// below 1e-17 at x = 1), evaluated by Estrin's scheme (pairs, then pairs of pairs), whose
    /// dependency chain is 5 multiply-adds deep instead of Horner's 16.
    @inline(__always)
    static func e1Series(_ x: Double) -> Double {
        // Coefficient of x^k: (−1)^(k+1)/(k·k!).
        let x2 = x * x, x4 = x2 * x2, x8 = x4 * x4
        let q0 = 1.0 - x * (1.0 / (2 * 2))                                              // k = 1, 2
        let q1 = 1.0 / (3 * 6) - x * (1.0 / (4 * 24))                                   // k = 3, 4
        let q2 = 1.0 / (5 * 120) - x * (1.0 / (6 * 720))                                // k = 5, 6
        let q3 = 1.0 / (7 * 5040) - x * (1.0 / (8 * 40320))                             // k = 7, 8
        let q4 = 1.0 / (9 * 362_880) - x * (1.0 / (10 * 3_628_800))                     // k = 9, 10
        let q5 = 1.0 / (11 * 39_916_800) - x * (1.0 / (12 * 479_001_600))               // k = 11, 12
        let q6 = 1.0 / (13 * 6_227_020_800) - x * (1.0 / (14 * 87_178_291_200))        // k = 13, 14
        let q7 = 1.0 / (15 * 1_307_674_368_000) - x * (1.0 / (16 * 20_922_789_888_000)) // k = 15, 16
        let c17 = 1.0 / (17 * 355_687_428_096_000)                                     // k = 17
        let r0 = q0 + x2 * q1, r1 = q2 + x2 * q3, r2 = q4 + x2 * q5, r3 = q6 + x2 * q7
        let s0 = r0 + x4 * r1, s1 = r2 + x4 * r3
        return x * (s0 + x8 * (s1 + x8 * c17))
    }

    /// E1(x) for x ≥ 1 from x·eˣ·E1(x) ≈ P₄(x)/Q₄(x), Abramowitz & Stegun 5.1.54 (|ε| < 5e-5 on
    /// x·eˣ·E1 as printed; 2e-8 relative on E1 measured against SciPy).
    @inline(__always)
    static func e1Rational(_ x: Double) -> Double {
        let p = (((x + 8.5733287401) * x + 18.0590169730) * x + 8.6347608925) * x + 0.2677737343
        let q = (((x + 9.5733223454) * x + 25.6329561486) * x + 21.0996530827) * x + 3.9584969228
        return exponential(-x) * p / (q * x)
    }

    /// M(−½; 1; −v) = e^(−v/2)·[(1 + v)·I₀(v/2) + v·I₁(v/2)], the confluent hypergeometric
    /// function of the MMSE-STSA gain (Ephraim & Malah 1984, eqs. 7 and 8), for 0 ≤ v ≤ 1 by its
    /// Taylor series Σₙ mₙvⁿ to v¹¹ with mₙ = (−½)ₙ·(−1)ⁿ/(n!)², i.e. m₀ = 1 and
    /// mₙ = −mₙ₋₁·(n − 3/2)/n² (relative error below 1e-11 against SciPy's `hyp1f1`). Estrin's
    /// scheme; no exponential.
    @inline(__always)
    static func confluentHypergeometricMinusHalf(_ v: Double) -> Double {
        let v2 = v * v, v4 = v2 * v2, v8 = v4 * v4
        let q0 = 1.0 + v * (1.0 / 2)
        let q1 = -1.0 / 16 + v * (1.0 / 96)
        let q2 = -5.0 / 3072 + v * (7.0 / 30720)
        let q3 = -7.0 / 245_760 + v * (11.0 / 3_440_640)
        let q4 = -143.0 / 440_401_920 + v * (143.0 / 4_756_340_736)
        let q5 = -2431.0 / 951_268_147_200 + v * (4199.0 / 20_927_899_238_400)
        return (q0 + v2 * q1) + v4 * (q2 + v2 * q3) + v8 * (q4 + v2 * q5)
    }

    /// (e^(−x)·I₀(x), e^(−x)·I₁(x)), the exponentially scaled modified Bessel functions of orders
    /// 0 and 1 for x ≥ 0 (SciPy `i0e`, `i1e`), sharing one `exp` or square root: the polynomial
    /// approximations of Abramowitz & Stegun 9.8.1 and 9.8.3 (x ≤ 3.75), 9.8.2 and 9.8.4
    /// (x > 3.75); relative error below 5e-7 against SciPy. `inverseSquareRoot` is 1/√x, which
    /// the caller usually has already.
    @inline(__always)
    static func scaledBesselI0I1(_ x: Double, inverseSquareRoot: Double) -> (i0: Double, i1: Double) {
        if x <= 3.75 {
            let t = x * (1 / 3.75), u = t * t
            let i0 = 1 + u * (3.5156229 + u * (3.0899424 + u * (1.2067492 + u * (0.2659732 + u * (0.0360768 + u * 0.0045813)))))
            let i1 = x * (0.5 + u * (0.87890594 + u * (0.51498869 + u * (0.15084934 + u * (0.02658733 + u * (0.00301532 + u * 0.00032411))))))
            let scale = exponential(-x)
            return (i0 * scale, i1 * scale)
        }
        let u = 3.75 * (inverseSquareRoot * inverseSquareRoot)
        let p0 = 0.39894228 + u * (0.01328592 + u * (0.00225319 + u * (-0.00157565 + u * (0.00916281
            + u * (-0.02057706 + u * (0.02635537 + u * (-0.01647633 + u * 0.00392377)))))))
        let p1 = 0.39894228 + u * (-0.03988024 + u * (-0.00362018 + u * (0.00163801 + u * (-0.01031555
            + u * (0.02282967 + u * (-0.02895312 + u * (0.01787654 - u * 0.00420059)))))))
        return (p0 * inverseSquareRoot, p1 * inverseSquareRoot)
    }
}
