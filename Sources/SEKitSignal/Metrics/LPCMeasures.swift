import Foundation

/// LPC-based distortion measures of Loizou, "Speech Enhancement: Theory and Practice"
/// (2nd ed., 2013, Sec. 10.5.2): the log-likelihood ratio (`comp_llr.m`, Quackenbush et al.
/// 1988, Eq. 2.18; Loizou Eq. 10.26) and the cepstral distance (`comp_cep.m`, Kitawaki et al.
/// 1988; Loizou Eq. 10.28). Lower is better for both.
///
/// Shared conventions (see ``LoizouFraming``): MATLAB eps added to every sample, 30 ms
/// Hann-windowed frames with 75% overlap, LPC order 10 below 10 kHz and 16 otherwise, from
/// the autocorrelation method and Levinson-Durbin recursion (`lpcoeff`), and the mean of the
/// lowest 95% of the per-frame values (`alpha = 0.95`).
public enum LPCMeasures {
    /// Log-likelihood ratio. Per frame, `log(a_p·R_c·a_pᵀ / a_c·R_c·a_cᵀ)` with `a_c`, `a_p` the
    /// LPC polynomials `[1, −α₁, ..., −α_P]` of the clean and processed frames and `R_c` the
    /// Toeplitz autocorrelation matrix of the clean frame; each frame value is limited to at
    /// most 2 (`min(2, ·)`, as in comp_llr.m; the ratio is ≥ 1 so values are ≥ 0 up to rounding),
    /// then the lowest 95% are averaged.
    /// - Parameters:
    ///   - frameLimit: the upper limit of a frame's value: 2 in comp_llr.m (the stand-alone `llr`);
    ///     nil in composite.m, whose LLR has no limit (`CompositeMeasures` (SEKit)).
    ///   - arithmetic: `.double` (comp_llr.m's own arithmetic, the stand-alone `llr`: its limit of 2
    ///     hides the ill-conditioned frames) or `.doubleDouble` (the composite: on frames of digital
    ///     silence a frame's value is off by up to ~0.06 in Double, and within 1e-13 of exact
    ///     arithmetic in double-double; see ``lpcoeff(lags:order:)``).
    /// - Throws: ``MetricError`` for length mismatch, non-finite input, or a signal shorter than one frame.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func llr<T: MetricSample>(reference: [T], processed: [T], sampleRate: Int, frameLimit: Double? = llrClip,
                                            arithmetic: LPCArithmetic = .double) throws -> Double {
        let framing = try LoizouFraming(metric: "llr", reference: reference, processed: processed, sampleRate: sampleRate)
        let order = lpcOrder(sampleRate: sampleRate)
        var values = [Double](repeating: 0, count: framing.count)
        for f in 0..<framing.count {
            let clean = framing.frame(f, of: reference), proc = framing.frame(f, of: processed)
            let value = switch arithmetic {
            case .double: frameLLR(clean: clean, processed: proc, order: order, lags: autocorrelation)
            case .doubleDouble: frameLLR(clean: clean, processed: proc, order: order, lags: accurateAutocorrelation)
            }
            values[f] = frameLimit.map { min($0, value) } ?? value
        }
        return LoizouFraming.trimmedMean(values)
    }

    /// The arithmetic of the LPC analysis and the LLR's quadratic forms.
    public enum LPCArithmetic: Sendable { case double, doubleDouble }

    /// `log(a_p·R_c·a_pᵀ / a_c·R_c·a_cᵀ)` of one pair of windowed frames, with lags from `lags`.
    static func frameLLR<S: LPCScalar>(clean: [Double], processed: [Double], order: Int, lags: ([Double], Int) -> [S]) -> Double {
        let rClean = lags(clean, order)
        let aClean = lpcoeff(lags: rClean, order: order), aProcessed = lpcoeff(lags: lags(processed, order), order: order)
        let numerator = quadraticForm(aProcessed, rClean), denominator = quadraticForm(aClean, rClean)
        return log((numerator / denominator).double)
    }

    /// Upper limit of a frame's LLR.
    public static let llrClip = 2.0

    /// Cepstral distance, dB. Per frame, `(10√2/ln 10)·‖c_c − c_p‖₂` over the LPC cepstra
    /// c₁...c_P (lpc2cep recursion `c_k = −(a_k + Σ_{i<k} i·c_i·a_{k−i}/k)` on the polynomial
    /// `[1, a₁, ..., a_P]`), limited to at most 10 (`min(10, ·)`, as in comp_cep.m), then the
    /// lowest 95% are averaged.
    /// - Throws: ``MetricError`` for length mismatch, non-finite input, or a signal shorter than one frame.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func cepstralDistance<T: MetricSample>(reference: [T], processed: [T], sampleRate: Int) throws -> Double {
        let framing = try LoizouFraming(metric: "cd", reference: reference, processed: processed, sampleRate: sampleRate)
        let order = lpcOrder(sampleRate: sampleRate)
        let scale = 10 * 2.0.squareRoot() / log(10.0)
        var values = [Double](repeating: 0, count: framing.count)
        for f in 0..<framing.count {
            let clean = cepstrum(lpcoeff(lags: autocorrelation(framing.frame(f, of: reference), maxLag: order), order: order))
            let proc = cepstrum(lpcoeff(lags: autocorrelation(framing.frame(f, of: processed), maxLag: order), order: order))
            var squares = 0.0
            for k in 0..<clean.count { let d = clean[k] - proc[k]; squares += d * d }
            values[f] = min(cdClip, scale * squares.squareRoot())
        }
        return LoizouFraming.trimmedMean(values)
    }

    /// Upper limit of a frame's cepstral distance.
    static let cdClip = 10.0

    /// LPC order: 10 below 10 kHz, 16 otherwise.
    static func lpcOrder(sampleRate: Int) -> Int { sampleRate < 10000 ? 10 : 16 }

    /// Autocorrelation lags R₀...R_P of `frame`, summed in order in Double (comp_llr.m's `lpcoeff`).
    static func autocorrelation(_ frame: [Double], maxLag: Int) -> [Double] {
        let n = frame.count
        return (0...maxLag).map { k in
            var s = 0.0
            for i in 0..<max(0, n - k) { s += frame[i] * frame[i + k] }
            return s
        }
    }

    /// Levinson-Durbin recursion on the lags `r`, as `lpcoeff` in comp_llr.m: the polynomial
    /// `[1, −α₁, ..., −α_P]`.
    ///
    /// In double-double (with ``accurateAutocorrelation(_:maxLag:)``) the analysis of an
    /// ill-conditioned frame keeps its value: on digital silence plus eps, `e_P/R₀` is ~2e-11 and the
    /// LLR's denominator has a relative condition number ~1e13 with respect to the lags. Error
    /// bounds: each lag is Ogita, Rump & Oishi's Dot2 (SIAM J. Sci. Comput. 26(6), 2005) on exact
    /// products, kept unrounded: |error| ≤ γ²ₙ·Σ|xᵢxᵢ₊ₖ|, γₙ = nu/(1 − nu), u = 2⁻⁵³ (~3e-27 of
    /// R₀ for a 480-sample frame of one sign, as silence plus eps is); the recursion and the
    /// quadratic forms then work with a unit roundoff of about u² ≈ 1.2e-32, so the relative error
    /// of either quadratic form is ~1e-32 × 1e13 ≈ 1e-19, far below the final rounding to Double.
    /// Measured against exact rational arithmetic (`CompositeLLRExactTests`): frame LLRs equal to
    /// the last bit or one ulp (≤ 1.2e-16), silent frames included.
    static func lpcoeff<S: LPCScalar>(lags r: [S], order: Int) -> [S] {
        var a = [S](repeating: .zero, count: order)
        var e = r[0]
        for i in 0..<order {
            let past = a
            var sumTerm = S.zero
            for j in 0..<i { sumTerm = sumTerm + past[j] * r[i - j] }
            let k = (r[i + 1] - sumTerm) / e
            a[i] = k
            for j in 0..<i { a[j] = past[j] - k * past[i - 1 - j] }
            e = (.one - k * k) * e
        }
        return [.one] + a.map { -$0 }
    }

    /// Lags `R_k = Σᵢ xᵢ·xᵢ₊ₖ`, k = 0...maxLag, each by Dot2 (TwoProduct of pre-split samples, TwoSum
    /// of the products, the rounding errors summed in Double) in four interleaved lanes, the lanes
    /// added in double-double. Exact products need samples between about 2⁻⁴⁰⁰ and 2⁴⁰⁰ in magnitude.
    static func accurateAutocorrelation(_ frame: [Double], maxLag: Int) -> [DoubleDouble] {
        let n = frame.count
        var high = [Double](repeating: 0, count: n), low = [Double](repeating: 0, count: n)
        for i in 0..<n { (high[i], low[i]) = DoubleDouble.split(frame[i]) }
        typealias V = SIMD4<Double>
        return frame.withUnsafeBufferPointer { x in
            high.withUnsafeBufferPointer { xh in
                low.withUnsafeBufferPointer { xl in
                    (0...maxLag).map { k -> DoubleDouble in
                        guard k < n else { return .zero }
                        let count = n - k
                        var s = V(), c = V()
                        func load(_ p: UnsafeBufferPointer<Double>, _ i: Int) -> V {
                            UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: V.self)
                        }
                        var i = 0
                        while i + 4 <= count {
                            let a = load(x, i), ah = load(xh, i), al = load(xl, i)
                            let b = load(x, i + k), bh = load(xh, i + k), bl = load(xl, i + k)
                            let p = a * b
                            let pe = ((ah * bh - p) + ah * bl + al * bh) + al * bl
                            let t = s + p, bb = t - s
                            c += ((s - (t - bb)) + (p - bb)) + pe
                            s = t
                            i += 4
                        }
                        var total = DoubleDouble.zero
                        for lane in 0..<4 {
                            let (hi, lo) = DoubleDouble.twoSum(s[lane], c[lane])
                            total += DoubleDouble(hi: hi, lo: lo)
                        }
                        while i < count {
                            let (p, pe) = DoubleDouble.twoProduct(x[i], xh[i], xl[i], x[i + k], xh[i + k], xl[i + k])
                            total += DoubleDouble(hi: p, lo: pe)
                            i += 1
                        }
                        return total
                    }
                }
            }
        }
    }

    /// `a·toeplitz(r)·aᵀ`.
    static func quadraticForm<S: LPCScalar>(_ a: [S], _ r: [S]) -> S {
        let m = a.count
        var total = S.zero
        for i in 0..<m {
            var row = S.zero
            for j in 0..<m { row = row + r[abs(i - j)] * a[j] }
            total = total + a[i] * row
        }
        return total
    }

    /// LPC cepstrum c₁...c_P of the polynomial `a = [1, a₁, ..., a_P]` (lpc2cep in comp_cep.m).
    static func cepstrum(_ a: [Double]) -> [Double] {
        let p = a.count - 1
        var c = [Double](repeating: 0, count: p)
        guard p > 0 else { return c }
        c[0] = -a[1]
        if p > 1 {
            for k in 2...p {
                var s = 0.0
                for i in 1..<k { s += c[i - 1] * a[k - i] * Double(i) }
                c[k - 1] = -(a[k] + s / Double(k))
            }
        }
        return c
    }
}
