import Foundation

/// Short-Time Objective Intelligibility (Taal, Hendriks, Heusdens & Jensen, IEEE TASLP 2011) and
/// its extended form ESTOI (Jensen & Taal, IEEE TASLP 2016), step for step as pystoi 0.4.1
/// computes them, in Double.
public enum STOI {
    static let sampleRate = 10_000          // internal rate, Hz
    static let frameLength = 256            // samples at 10 kHz (25.6 ms)
    static let fftSize = 512
    static let bandCount = 15               // one-third octave bands
    static let lowestCentreHz = 150.0       // centre of the first band
    static let segmentFrames = 30           // N: 384 ms analysis segments
    static let beta = -15.0                 // lower SDR bound, dB (clipping, eq. 3 of Taal 2011)
    static let dynamicRangeDB = 40.0        // silent frames lie more than this below the loudest
    static let eps = Double.ulpOfOne        // numpy's float eps, as pystoi adds it

    /// STOI (`extended: false`) or ESTOI (`extended: true`) of `processed` against `reference`.
    ///
    /// Steps: resample to 10 kHz with ``OctaveResampler`` (pystoi's `resample_oct`); drop frames
    /// (256 samples, hop 128, Hann) of the reference quieter than its loudest by 40 dB, in both
    /// signals, and overlap-add the rest; STFT (256-sample Hann frames, hop 128, 512-point FFT);
    /// 15 one-third-octave bands from 150 Hz (eq. 1); 30-frame segments; then STOI's
    /// normalisation, clipping at β = −15 dB and correlation (eqs. 2–6 of Taal 2011), or ESTOI's
    /// row-and-column normalised inner products (eqs. 5–8 of Jensen & Taal 2016).
    ///
    /// A pure function: it analyses both signals afresh (a scorer shares the analyses between STOI
    /// and ESTOI and between comparisons with one reference through
    /// `compute(_:extended:workspace:)` in SEKit). The signals may be Float or Double (``MetricSample``):
    /// a window of them at a time is resampled in Double, so memory does not grow with their length
    /// beyond the band envelopes (15 values per 12.8 ms of speech). Complexity: O(n·taps/q) for the
    /// resampling (rate q/gcd), O(frames·512·log 512) for the STFT, O(frames·15·30) for the segments.
    /// - Throws: ``MetricError/tooShort(metric:samples:reason:)`` when fewer than 30 frames remain
    ///   after silence removal (pystoi would return 1e-5), and for mismatched lengths or NaN.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func compute<T: MetricSample>(reference: [T], processed: [T], sampleRate fs: Int,
                                                extended: Bool = false) throws -> Double {
        try compute(reference: reference, processed: processed, sampleRate: fs, extended: extended, workspace: Workspace())
    }

    /// ``compute(reference:processed:sampleRate:extended:)`` with the scratch state `workspace`.
    static func compute<T: MetricSample>(reference: [T], processed: [T], sampleRate fs: Int, extended: Bool,
                                         workspace: Workspace) throws -> Double {
        guard fs > 0 else { throw MetricError.invalidParameter(name: "sampleRate", value: "\(fs)", reason: "must be positive") }
        try MetricError.checkPair(reference, processed)
        let analysis = reference.withUnsafeBufferPointer { referenceAnalysis($0, sampleRate: fs, workspace: workspace) }
        let yBands = processed.withUnsafeBufferPointer { processedBands($0, reference: analysis, sampleRate: fs, workspace: workspace) }
        return try value(analysis.bands, yBands, samples: reference.count, extended: extended)
    }

    /// STOI or ESTOI from the band envelopes of a reference of `samples` samples and a processed signal.
    /// - Throws: ``MetricError/tooShort(metric:samples:reason:)`` when fewer than 30 frames remain.
    package static func value(_ xBands: [Double], _ yBands: [Double], samples: Int, extended: Bool) throws -> Double {
        let frames = xBands.count / lanes
        guard frames >= segmentFrames else {
            throw MetricError.tooShort(metric: extended ? "estoi" : "stoi", samples: samples,
                reason: "\(frames) STFT frames remain after silence removal, \(segmentFrames) are needed (384 ms of speech)")
        }
        return extended ? estoi(xBands, yBands, frames: frames) : stoi(xBands, yBands, frames: frames)
    }

    /// MATLAB `hanning(n)`: 0.5·(1 − cos(2πk/(n+1))), k = 1...n (numpy `hanning(n+2)[1:-1]`).
    static let frameWindow: [Double] = Window.matlabHanning(length: frameLength)

    /// One-third octave band matrix as (first bin, end bin) per band (pystoi `thirdoct`): band
    /// edges at 150·2^((2k∓1)/6) Hz snapped to the nearest FFT bin; the upper edge is exclusive.
    static let bandBins: [(Int, Int)] = {
        let bins = fftSize / 2 + 1
        let f = (0..<bins).map { Double($0) * Double(sampleRate) / Double(fftSize) }
        func nearest(_ hz: Double) -> Int {
            var best = 0
            for i in 1..<bins where (f[i] - hz) * (f[i] - hz) < (f[best] - hz) * (f[best] - hz) { best = i }
            return best
        }
        return (0..<bandCount).map { k in
            let low = lowestCentreHz * pow(2, (2 * Double(k) - 1) / 6)
            let high = lowestCentreHz * pow(2, (2 * Double(k) + 1) / 6)
            return (nearest(low), nearest(high))
        }
    }()

    /// Band envelopes are stored frame-major, `lanes` values a frame: bands 0..<15, then a zero,
    /// so every per-band step runs on four bands at once (SIMD4: four independent sums, as the
    /// loops are bound by the latency of their additions); each band's sums run in time order.
    static let lanes = 16

    @inline(__always)
    static func quad(_ p: UnsafePointer<Double>) -> SIMD4<Double> { UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Double>.self) }

    /// Classic STOI: per band and 30-frame segment, scale y to x's energy, clip at
    /// x·(1 + 10^(−β/20)), correlate (eqs. 2–5 of Taal 2011); mean over bands and segments (eq. 6).
    /// `x`, `y`: `frames × lanes` band envelopes.
    static func stoi(_ x: [Double], _ y: [Double], frames: Int) -> Double {
        let n = segmentFrames
        let clip = SIMD4<Double>(repeating: 1 + pow(10, -beta / 20))
        let segments = frames - n + 1
        var total = SIMD4<Double>()
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                for g in stride(from: 0, to: lanes, by: 4) {
                    let xg = x.baseAddress! + g, yg = y.baseAddress! + g
                    for m in 0..<segments {
                        var xx = SIMD4<Double>(), yy = SIMD4<Double>()
                        for t in m..<(m + n) {
                            let a = quad(xg + t * lanes), c = quad(yg + t * lanes)
                            xx += a * a; yy += c * c
                        }
                        let alpha = xx.squareRoot() / (yy.squareRoot() + eps)
                        @inline(__always) func clipped(_ t: Int) -> SIMD4<Double> {
                            let scaled = quad(yg + t * lanes) * alpha, limit = quad(xg + t * lanes) * clip
                            return scaled.replacing(with: limit, where: limit .< scaled)
                        }
                        var xm = SIMD4<Double>(), ym = SIMD4<Double>()
                        for t in m..<(m + n) { xm += quad(xg + t * lanes); ym += clipped(t) }
                        xm /= Double(n); ym /= Double(n)
                        var xn = SIMD4<Double>(), yn = SIMD4<Double>(), xy = SIMD4<Double>()
                        for t in m..<(m + n) {
                            let a = quad(xg + t * lanes) - xm, c = clipped(t) - ym
                            xn += a * a; yn += c * c; xy += a * c
                        }
                        total += xy / ((xn.squareRoot() + eps) * (yn.squareRoot() + eps))  // the padding lane adds 0
                    }
                }
            }
        }
        return total.sum() / Double(segments * bandCount)
    }

    /// ESTOI: per segment, normalise rows (bands over time) to zero mean and unit norm, then
    /// columns (spectra) likewise, and average the column inner products (eqs. 5–8 of Jensen &
    /// Taal 2016). (pystoi adds noise of size 1e-16 before each normalisation to avoid division
    /// by zero; its effect is far below 1e-9 and is left out here, so the result is deterministic.)
    /// `x`, `y`: `frames × lanes` band envelopes.
    static func estoi(_ x: [Double], _ y: [Double], frames: Int) -> Double {
        let n = segmentFrames
        let segments = frames - n + 1
        var total = 0.0
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                let xp = x.baseAddress!, yp = y.baseAddress!
                for m in 0..<segments {
                    let rowsX = RowNormaliser(xp, segment: m), rowsY = RowNormaliser(yp, segment: m)
                    var sum = 0.0
                    for t in m..<(m + n) {
                        let (cx, scaleX) = rowsX.centredColumn(xp + t * lanes)
                        let (cy, scaleY) = rowsY.centredColumn(yp + t * lanes)
                        sum += (cx.0 * cy.0 + cx.1 * cy.1 + cx.2 * cy.2 + cx.3 * cy.3).sum() * scaleX * scaleY
                    }
                    total += sum / Double(n)
                }
            }
        }
        return total / Double(segments)
    }

    /// ESTOI's row normalisation of one 30-frame segment (per band: zero mean, unit norm over
    /// time), four bands to a SIMD4, and the column step applied to one frame of it.
    struct RowNormaliser {
        typealias Bands = (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)
        var mean: Bands = (.zero, .zero, .zero, .zero)
        var inverseNorm: Bands = (.zero, .zero, .zero, .zero)

        @inline(__always)
        init(_ source: UnsafePointer<Double>, segment m: Int) {
            let n = segmentFrames
            @inline(__always) func row(_ g: Int) -> (SIMD4<Double>, SIMD4<Double>) {
                var sum = SIMD4<Double>()
                for t in m..<(m + n) { sum += quad(source + t * lanes + 4 * g) }
                let mu = sum / Double(n)
                var norm = SIMD4<Double>()
                for t in m..<(m + n) { let v = quad(source + t * lanes + 4 * g) - mu; norm += v * v }
                return (mu, 1 / norm.squareRoot())
            }
            (mean.0, inverseNorm.0) = row(0)
            (mean.1, inverseNorm.1) = row(1)
            (mean.2, inverseNorm.2) = row(2)
            (mean.3, inverseNorm.3) = row(3)
            inverseNorm.3[3] = 0  // the padding lane: 0, not 0·∞
        }

        /// Frame `row` row-normalised, then centred over its 15 bands; with the inverse of its norm
        /// (the column normalisation, applied by the caller).
        @inline(__always)
        func centredColumn(_ row: UnsafePointer<Double>) -> (Bands, Double) {
            let r0 = (quad(row) - mean.0) * inverseNorm.0, r1 = (quad(row + 4) - mean.1) * inverseNorm.1
            let r2 = (quad(row + 8) - mean.2) * inverseNorm.2, r3 = (quad(row + 12) - mean.3) * inverseNorm.3
            let columnMean = SIMD4<Double>(repeating: (r0 + r1 + r2 + r3).sum() / Double(bandCount))
            let c0 = r0 - columnMean, c1 = r1 - columnMean, c2 = r2 - columnMean
            let c3 = r3 - columnMean * SIMD4(1, 1, 1, 0)  // the padding lane stays 0
            let norm = (c0 * c0 + c1 * c1 + c2 * c2 + c3 * c3).sum()
            return ((c0, c1, c2, c3), 1 / norm.squareRoot())
        }
    }
}
