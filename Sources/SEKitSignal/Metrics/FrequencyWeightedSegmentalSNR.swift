import Foundation

/// Frequency-weighted segmental SNR (fwSNRseg), dB, as computed by `comp_fwseg.m` in Loizou,
/// "Speech Enhancement: Theory and Practice" (2nd ed., 2013, Sec. 10.5.1, Eq. 10.21), after
/// Tribolet et al. (1978), with the clean spectrum (raised to γ = 0.2) as the band weight.
/// Higher is better.
public enum FrequencyWeightedSegmentalSNR {
    /// Band-weight exponent γ.
    static let gamma = 0.2
    /// Per-frame clamp, dB.
    static let minimumDB = -10.0, maximumDB = 35.0

    /// fwSNRseg of `processed` against `reference`, dB.
    ///
    /// For each 30 ms Hann-windowed frame (hop 25%, see ``LoizouFraming``), the magnitude spectra
    /// `|X|` and `|X̂|` (FFT size `2^nextpow2(2·len)`, bins 0..<nfft/2) are each normalised to
    /// unit sum, passed through the 25 Gaussian critical-band filters (``CriticalBands``) to band
    /// values `X_j`, `X̂_j`, and
    /// `fwSNR = Σ_j W_j·10·log10(X_j² / max((X_j − X̂_j)², eps)) / Σ_j W_j` with `W_j = X_j^0.2`,
    /// clamped to [−10, 35] dB. The result is the plain mean over all frames (no trimming).
    /// MATLAB eps is added to every sample first, as in the reference.
    /// - Throws: ``MetricError`` for length mismatch, non-finite input, or a signal shorter than one frame.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func compute<T: MetricSample>(reference: [T], processed: [T], sampleRate: Int) throws -> Double {
        let framing = try LoizouFraming(metric: "fwsegsnr", reference: reference, processed: processed, sampleRate: sampleRate)
        let fft = RealFFT<Double>.double(size: framing.fftSize)
        let half = fft.size / 2
        let filters = CriticalBands.filters(sampleRate: sampleRate, halfSize: half)
        let eps = LoizouFraming.matlabEps
        var total = 0.0
        for f in 0..<framing.count {
            var clean = CriticalBands.magnitudes(framing.frame(f, of: reference), fft: fft)
            var proc = CriticalBands.magnitudes(framing.frame(f, of: processed), fft: fft)
            let cleanSum = clean.reduce(0, +), procSum = proc.reduce(0, +)
            for k in 0..<half { clean[k] /= cleanSum; proc[k] /= procSum }
            var numerator = 0.0, weights = 0.0
            for filter in filters {
                var c = 0.0, p = 0.0
                for k in 0..<half { c += clean[k] * filter[k]; p += proc[k] * filter[k] }
                let d = c - p
                let error = max(d * d, eps)
                let w = pow(c, gamma)
                numerator += w * (10 * log10((c * c) / error))
                weights += w
            }
            let value = numerator / weights
            total += min(max(value, minimumDB), maximumDB)
        }
        return total / Double(framing.count)
    }
}
