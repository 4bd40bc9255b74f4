import Foundation

/// Weighted spectral slope (WSS) distance as computed by `comp_wss.m` in Loizou, "Speech
/// Enhancement: Theory and Practice" (2nd ed., 2013, Sec. 10.5.2, Eq. 10.27), after Klatt
/// (ICASSP 1982) with 25 Gaussian critical-band filters instead of Klatt's 36 (code by
/// B. Pellom and J. Hansen). Lower is better; identical signals give 0.
public enum WeightedSpectralSlope {
    /// Klatt's weighting constants (global and local maximum).
    static let kMax = 20.0, kLocMax = 1.0

    /// WSS of `processed` against `reference`.
    ///
    /// For each 30 ms Hann-windowed frame (hop 25%, see ``LoizouFraming``), the power spectra
    /// (FFT size `2^nextpow2(2·len)`, bins 0..<nfft/2) go through the 25 critical-band filters
    /// (``CriticalBands``); band energies in dB (`10·log10(max(E, 1e-10))`) give slopes
    /// `S_j = E_{j+1} − E_j`. The nearest-peak level for band j is found as comp_wss.m does it
    /// (searching right while the slope is positive and taking the level one band before where
    /// the search stopped, or left while the slope is ≤ 0 and taking the level one band after).
    /// The weight is the mean over clean and processed of
    /// `Kmax/(Kmax + Emax − E_j) · Klocmax/(Klocmax + Epeak_j − E_j)`, and the frame value is
    /// `Σ W_j (S_j − Ŝ_j)² / Σ W_j`. The result is the mean of the lowest 95% of frame values.
    /// MATLAB eps is added to every sample first, as in the reference.
    /// - Throws: ``MetricError`` for length mismatch, non-finite input, or a signal shorter than one frame.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func compute<T: MetricSample>(reference: [T], processed: [T], sampleRate: Int) throws -> Double {
        let framing = try LoizouFraming(metric: "wss", reference: reference, processed: processed, sampleRate: sampleRate)
        let fft = RealFFT<Double>.double(size: framing.fftSize)
        let half = fft.size / 2
        let filters = CriticalBands.supports(sampleRate: sampleRate, halfSize: half)
        let bands = filters.count
        var values = [Double](repeating: 0, count: framing.count)
        for f in 0..<framing.count {
            let clean = bandEnergies(framing.frame(f, of: reference), fft: fft, filters: filters)
            let proc = bandEnergies(framing.frame(f, of: processed), fft: fft, filters: filters)
            let cleanSlope = (0..<(bands - 1)).map { clean[$0 + 1] - clean[$0] }
            let procSlope = (0..<(bands - 1)).map { proc[$0 + 1] - proc[$0] }
            let cleanPeak = peaks(clean, cleanSlope)
            let procPeak = peaks(proc, procSlope)
            let cleanMax = clean.max()!, procMax = proc.max()!
            var distortion = 0.0, weights = 0.0
            for j in 0..<(bands - 1) {
                let wClean = (kMax / (kMax + cleanMax - clean[j])) * (kLocMax / (kLocMax + cleanPeak[j] - clean[j]))
                let wProc = (kMax / (kMax + procMax - proc[j])) * (kLocMax / (kLocMax + procPeak[j] - proc[j]))
                let w = (wClean + wProc) / 2.0
                let d = cleanSlope[j] - procSlope[j]
                distortion += w * (d * d)
                weights += w
            }
            values[f] = distortion / weights
        }
        return LoizouFraming.trimmedMean(values)
    }

    /// WSS of a comparison, computed once per comparison (shared by `wss` and the composite).
    package static func compute(_ comparison: MetricComparison) throws -> Double {
        try comparison.analysis("wss") {
            try compute(reference: comparison.reference.samples, processed: comparison.processed, sampleRate: comparison.sampleRate)
        }
    }

    /// Critical-band energies in dB of the power spectrum `|X|²` of `frame` (`hypot(re, im)²`, as
    /// comp_wss.m's `abs(X).^2`; `re² + im²` would be within 2 ulp but changes the pinned outputs).
    /// Each band sums only over its filter's non-zero support, in the same order, so the sums are
    /// bit for bit those over all 512 bins (the skipped terms are exact zeros).
    static func bandEnergies(_ frame: [Double], fft: RealFFT<Double>, filters: [CriticalBands.Support]) -> [Double] {
        let power = CriticalBands.magnitudes(frame, fft: fft).map { $0 * $0 }
        return filters.map { filter in
            var e = 0.0
            for (j, weight) in filter.weights.enumerated() { e += power[filter.firstBin + j] * weight }
            return 10 * log10(max(e, 1e-10))
        }
    }

    /// Nearest-peak levels per band, reproducing comp_wss.m step (5) exactly.
    static func peaks(_ energy: [Double], _ slope: [Double]) -> [Double] {
        let m = slope.count
        return (0..<m).map { i in
            var n = i
            if slope[i] > 0 {
                while n < m && slope[n] > 0 { n += 1 }
                return energy[n - 1]
            } else {
                while n >= 0 && slope[n] <= 0 { n -= 1 }
                return energy[n + 1]
            }
        }
    }
}
