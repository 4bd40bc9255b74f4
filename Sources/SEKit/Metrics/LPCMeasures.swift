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
    /// - Parameter frameLimit: the upper limit of a frame's value: 2 in comp_llr.m (the stand-alone
    ///   `llr`); nil in composite.m, whose LLR has no limit (``CompositeMeasures``).
    /// - Throws: ``MetricError`` for length mismatch, non-finite input, or a signal shorter than one frame.
    public static func llr<T: MetricSample>(reference: [T], processed: [T], sampleRate: Int, frameLimit: Double? = llrClip) throws -> Double {
        let framing = try LoizouFraming(metric: "llr", reference: reference, processed: processed, sampleRate: sampleRate)
        let order = lpcOrder(sampleRate: sampleRate)
        var values = [Double](repeating: 0, count: framing.count)
        for f in 0..<framing.count {
            let clean = lpcoeff(framing.frame(f, of: reference), order: order)
            let proc = lpcoeff(framing.frame(f, of: processed), order: order)
            let numerator = quadraticForm(proc.polynomial, clean.autocorrelation)
            let denominator = quadraticForm(clean.polynomial, clean.autocorrelation)
            let value = log(numerator / denominator)
            values[f] = frameLimit.map { min($0, value) } ?? value
        }
        return LoizouFraming.trimmedMean(values)
    }

    /// Upper limit of a frame's LLR.
    public static let llrClip = 2.0

    /// Cepstral distance, dB. Per frame, `(10√2/ln 10)·‖c_c − c_p‖₂` over the LPC cepstra
    /// c₁...c_P (lpc2cep recursion `c_k = −(a_k + Σ_{i<k} i·c_i·a_{k−i}/k)` on the polynomial
    /// `[1, a₁, ..., a_P]`), limited to at most 10 (`min(10, ·)`, as in comp_cep.m), then the
    /// lowest 95% are averaged.
    /// - Throws: ``MetricError`` for length mismatch, non-finite input, or a signal shorter than one frame.
    public static func cepstralDistance<T: MetricSample>(reference: [T], processed: [T], sampleRate: Int) throws -> Double {
        let framing = try LoizouFraming(metric: "cd", reference: reference, processed: processed, sampleRate: sampleRate)
        let order = lpcOrder(sampleRate: sampleRate)
        let scale = 10 * 2.0.squareRoot() / log(10.0)
        var values = [Double](repeating: 0, count: framing.count)
        for f in 0..<framing.count {
            let clean = cepstrum(lpcoeff(framing.frame(f, of: reference), order: order).polynomial)
            let proc = cepstrum(lpcoeff(framing.frame(f, of: processed), order: order).polynomial)
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

    /// Autocorrelation lags R₀...R_P and Levinson-Durbin recursion, as `lpcoeff` in comp_llr.m.
    /// Returns the lags and the polynomial `[1, −α₁, ..., −α_P]`.
    static func lpcoeff(_ frame: [Double], order: Int) -> (autocorrelation: [Double], polynomial: [Double]) {
        let n = frame.count
        var r = [Double](repeating: 0, count: order + 1)
        for k in 0...order {
            var s = 0.0
            for i in 0..<(n - k) { s += frame[i] * frame[i + k] }
            r[k] = s
        }
        var a = [Double](repeating: 1, count: order)
        var e = r[0]
        for i in 0..<order {
            let past = a
            var sumTerm = 0.0
            for j in 0..<i { sumTerm += past[j] * r[i - j] }
            let k = (r[i + 1] - sumTerm) / e
            a[i] = k
            for j in 0..<i { a[j] = past[j] - k * past[i - 1 - j] }
            e = (1 - k * k) * e
        }
        return (r, [1] + a.map { -$0 })
    }

    /// `a·toeplitz(r)·aᵀ`.
    static func quadraticForm(_ a: [Double], _ r: [Double]) -> Double {
        let m = a.count
        var total = 0.0
        for i in 0..<m {
            var row = 0.0
            for j in 0..<m { row += r[abs(i - j)] * a[j] }
            total += a[i] * row
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
