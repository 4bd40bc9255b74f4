import Foundation

/// BSS Eval energy ratios for one source (Vincent, Gribonval & Févotte, "Performance measurement in
/// blind audio source separation", IEEE TASLP 2006), computed as `mir_eval.separation.bss_eval_sources`
/// (mir_eval 0.8.2) computes them for a single reference.
///
/// The estimate ŝ is decomposed by orthogonal projection onto the reference s filtered by every
/// causal FIR filter of ``filterLength`` taps (the allowed time-invariant distortion): with P the
/// projection (length n + 511), s_target + e_spat = P, e_interf = 0 (there is no other source), and
/// e_artif = ŝ (zero-padded) − P. Then SDR = 10·log10(‖P‖² / ‖e_artif‖²), SAR the same ratio (with
/// no interference the two coincide), and SIR = +∞. The projection solves the 512×512 symmetric
/// Toeplitz normal equations (autocorrelation of s against its cross-correlation with ŝ) by
/// Levinson–Durbin recursion; the correlations and the filtering go through FFTs of the next power
/// of two ≥ n + 511, in double precision.
public enum BSSEval {
    /// Taps of the distortion filter (mir_eval's `flen`).
    public static let filterLength = 512

    /// The three ratios, dB.
    public struct Ratios: Sendable, Equatable {
        /// Source-to-distortion ratio.
        public var sdr: Double
        /// Source-to-interference ratio: +∞ for one source.
        public var sir: Double
        /// Source-to-artefacts ratio.
        public var sar: Double
    }

    /// SDR, SIR and SAR of `estimate` against `reference`.
    /// - Throws: ``MetricError`` for mismatched lengths or non-finite samples, a silent reference,
    ///   a silent estimate (mir_eval refuses both), or a signal shorter than the filter.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func ratios<T: MetricSample>(reference: [T], estimate: [T]) throws -> Ratios {
        try MetricError.checkPair(reference, estimate)
        let n = reference.count, taps = filterLength
        guard n >= taps else {
            throw MetricError.tooShort(metric: "sdr", samples: n, reason: "needs at least \(taps) samples (the distortion filter's length)")
        }
        guard reference.contains(where: { $0.double != 0 }) else { throw MetricError.silentReference(metric: "sdr") }
        guard estimate.contains(where: { $0.double != 0 }) else {
            throw MetricError.undefined(metric: "sdr", reason: "the estimate is silent (all zeros)")
        }
        let padded = n + taps - 1
        var size = 1
        while size < padded { size <<= 1 }
        let fft = RealFFT<Double>.double(size: size)
        var buffer = [Double](repeating: 0, count: size)
        for i in 0..<n { buffer[i] = reference[i].double }
        let referenceSpectrum = fft.forward(buffer)
        for i in 0..<n { buffer[i] = estimate[i].double }
        let estimateSpectrum = fft.forward(buffer)
        // Autocorrelation of s and cross-correlation of s with ŝ (circular over `size` ≥ n + 511
        // samples, so every lag used is a linear one).
        var product = [Double](repeating: 0, count: 2 * fft.binCount)
        for k in 0..<fft.binCount {
            let re = referenceSpectrum[2 * k], im = referenceSpectrum[2 * k + 1]
            product[2 * k] = re * re + im * im
        }
        let autocorrelation = fft.inverse(product)
        for k in 0..<fft.binCount {
            let (ar, ai) = (referenceSpectrum[2 * k], referenceSpectrum[2 * k + 1])
            let (br, bi) = (estimateSpectrum[2 * k], estimateSpectrum[2 * k + 1])
            // S · conj(Ŝ): lag m holds Σ s[t + m] ŝ[t]; lag −k (index size − k) is Σ s[t − k] ŝ[t].
            product[2 * k] = ar * br + ai * bi
            product[2 * k + 1] = ai * br - ar * bi
        }
        let crossCorrelation = fft.inverse(product)
        let column = (0..<taps).map { autocorrelation[$0] }
        let rightSide = (0..<taps).map { $0 == 0 ? crossCorrelation[0] : crossCorrelation[size - $0] }
        let filter = try solveToeplitz(column, rightSide)
        // P = filter ∗ s, the first n + 511 samples.
        buffer = [Double](repeating: 0, count: size)
        for i in 0..<taps { buffer[i] = filter[i] }
        let filterSpectrum = fft.forward(buffer)
        for k in 0..<fft.binCount {
            let (ar, ai) = (referenceSpectrum[2 * k], referenceSpectrum[2 * k + 1])
            let (br, bi) = (filterSpectrum[2 * k], filterSpectrum[2 * k + 1])
            product[2 * k] = ar * br - ai * bi
            product[2 * k + 1] = ar * bi + ai * br
        }
        let projection = fft.inverse(product)
        var target = 0.0, artefacts = 0.0
        for i in 0..<padded {
            let p = projection[i]
            let e = (i < n ? estimate[i].double : 0) - p
            target += p * p
            artefacts += e * e
        }
        let ratio = artefacts == 0 ? Double.infinity : 10 * log10(target / artefacts)
        return Ratios(sdr: ratio, sir: .infinity, sar: ratio)
    }

    /// Solves T x = b for the symmetric Toeplitz T of first column `column` (Levinson–Durbin).
    /// - Throws: ``MetricError/undefined(metric:reason:)`` when T is singular.
    static func solveToeplitz(_ column: [Double], _ b: [Double]) throws -> [Double] {
        let m = column.count
        guard column[0] > 0 else { throw MetricError.undefined(metric: "sdr", reason: "the reference has no energy") }
        var forward = [Double](repeating: 0, count: m), x = [Double](repeating: 0, count: m)
        var next = forward
        forward[0] = 1 / column[0]
        x[0] = b[0] / column[0]
        for k in 1..<m {
            // Error of extending the forward vector by one.
            var error = 0.0
            for i in 0..<k { error += column[k - i] * forward[i] }
            let denominator = 1 - error * error
            guard denominator.isFinite, abs(denominator) > 1e-300 else {
                throw MetricError.undefined(metric: "sdr", reason: "the reference's autocorrelation matrix is singular")
            }
            // For a symmetric Toeplitz matrix the backward vector is the forward one reversed.
            for i in 0...k {
                let f = i < k ? forward[i] : 0
                let bk = i > 0 ? forward[k - i] : 0
                next[i] = (f - error * bk) / denominator
            }
            swap(&forward, &next)
            var residual = 0.0
            for i in 0..<k { residual += column[k - i] * x[i] }
            let correction = b[k] - residual
            // x ← x + correction · backward, backward[i] = forward[k − i].
            for i in 0...k { x[i] += correction * forward[k - i] }
        }
        return x
    }
}
