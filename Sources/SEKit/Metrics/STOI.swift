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
    /// - Throws: ``MetricError/tooShort(metric:samples:reason:)`` when fewer than 30 frames remain
    ///   after silence removal (pystoi would return 1e-5), and for mismatched lengths or NaN.
    public static func compute(reference: [Double], processed: [Double], sampleRate fs: Int, extended: Bool = false) throws -> Double {
        try MetricError.checkPair(reference, processed)
        let name = extended ? "estoi" : "stoi"
        guard fs > 0 else { throw MetricError.invalidParameter(name: "sampleRate", value: "\(fs)", reason: "must be positive") }
        var x = reference, y = processed
        if fs != sampleRate {
            x = OctaveResampler.resample(x, to: sampleRate, from: fs)
            y = OctaveResampler.resample(y, to: sampleRate, from: fs)
        }
        (x, y) = removeSilentFrames(x, y)
        let xBands = try thirdOctaveEnvelopes(x, metric: name)
        let yBands = try thirdOctaveEnvelopes(y, metric: name)
        let frames = xBands.count / bandCount
        guard frames >= segmentFrames else {
            throw MetricError.tooShort(metric: name, samples: reference.count,
                reason: "\(frames) STFT frames remain after silence removal, \(segmentFrames) are needed (384 ms of speech)")
        }
        return extended ? estoi(xBands, yBands, frames: frames) : stoi(xBands, yBands, frames: frames)
    }

    /// MATLAB `hanning(n)`: 0.5·(1 − cos(2πk/(n+1))), k = 1...n (numpy `hanning(n+2)[1:-1]`).
    static let frameWindow: [Double] = (1...frameLength).map { 0.5 * (1 - cos(2 * Double.pi * Double($0) / Double(frameLength + 1))) }

    /// Removes frames whose reference energy is more than 40 dB below the loudest frame
    /// (pystoi `remove_silent_frames`: frames start at 0, hop 128, while start < n − 256).
    static func removeSilentFrames(_ x: [Double], _ y: [Double]) -> ([Double], [Double]) {
        let hop = frameLength / 2
        let w = frameWindow
        var starts: [Int] = []
        var s = 0
        while s < x.count - frameLength { starts.append(s); s += hop }
        var energies = [Double](repeating: 0, count: starts.count)
        for (f, start) in starts.enumerated() {
            var e = 0.0
            for i in 0..<frameLength { let v = w[i] * x[start + i]; e += v * v }
            energies[f] = 20 * log10(e.squareRoot() + eps)
        }
        guard let loudest = energies.max() else { return ([], []) }
        let kept = starts.indices.filter { loudest - dynamicRangeDB - energies[$0] < 0 }
        guard !kept.isEmpty else { return ([], []) }
        let length = (kept.count - 1) * hop + frameLength
        var xs = [Double](repeating: 0, count: length), ys = [Double](repeating: 0, count: length)
        for (k, f) in kept.enumerated() {
            let src = starts[f], dst = k * hop
            for i in 0..<frameLength {
                xs[dst + i] += w[i] * x[src + i]
                ys[dst + i] += w[i] * y[src + i]
            }
        }
        return (xs, ys)
    }

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

    /// Band envelopes, frame-major: `[frame * bandCount + band]` = sqrt(Σ |X(k)|² over the band).
    /// Frames start at 0, hop 128, while start < n − 256 (pystoi `stft`).
    static func thirdOctaveEnvelopes(_ x: [Double], metric: String) throws -> [Double] {
        let hop = frameLength / 2
        var frameCount = 0
        if x.count > frameLength { frameCount = (x.count - frameLength - 1) / hop + 1 }
        var out = [Double](repeating: 0, count: frameCount * bandCount)
        guard frameCount > 0 else { return out }
        let fft = RealFFT.double(size: fftSize)
        let bands = bandBins
        var frame = [Double](repeating: 0, count: fftSize)
        var spectrum = [Double](repeating: 0, count: 2 * fft.binCount)
        var power = [Double](repeating: 0, count: fft.binCount)
        let w = frameWindow
        for f in 0..<frameCount {
            let start = f * hop
            for i in 0..<frameLength { frame[i] = w[i] * x[start + i] }
            frame.withUnsafeBufferPointer { inp in spectrum.withUnsafeMutableBufferPointer { fft.forward(inp, into: $0) } }
            for k in 0..<fft.binCount { power[k] = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1] }
            for (b, (low, high)) in bands.enumerated() {
                var e = 0.0
                for k in low..<high { e += power[k] }
                out[f * bandCount + b] = e.squareRoot()
            }
        }
        return out
    }

    /// Classic STOI: per band and segment, scale y to x's energy, clip at x·(1 + 10^(−β/20)),
    /// correlate; mean over bands and segments.
    static func stoi(_ x: [Double], _ y: [Double], frames: Int) -> Double {
        let n = segmentFrames
        let clip = 1 + pow(10, -beta / 20)
        var total = 0.0
        var xv = [Double](repeating: 0, count: n), yv = [Double](repeating: 0, count: n)
        let segments = frames - n + 1
        for m in 0..<segments {
            for b in 0..<bandCount {
                var xx = 0.0, yy = 0.0
                for t in 0..<n {
                    xv[t] = x[(m + t) * bandCount + b]; yv[t] = y[(m + t) * bandCount + b]
                    xx += xv[t] * xv[t]; yy += yv[t] * yv[t]
                }
                let alpha = xx.squareRoot() / (yy.squareRoot() + eps)
                var xm = 0.0, ym = 0.0
                for t in 0..<n {
                    yv[t] = min(yv[t] * alpha, xv[t] * clip)
                    xm += xv[t]; ym += yv[t]
                }
                xm /= Double(n); ym /= Double(n)
                var xn = 0.0, yn = 0.0, xy = 0.0
                for t in 0..<n {
                    let a = xv[t] - xm, c = yv[t] - ym
                    xn += a * a; yn += c * c; xy += a * c
                }
                total += xy / ((xn.squareRoot() + eps) * (yn.squareRoot() + eps))
            }
        }
        return total / Double(segments * bandCount)
    }

    /// ESTOI: per segment, normalise rows (bands over time) to zero mean and unit norm, then
    /// columns (spectra) likewise, and average the column inner products. (pystoi adds noise of
    /// size 1e-16 before each normalisation to avoid division by zero; its effect is far below
    /// 1e-9 and is left out here, so the result is deterministic.)
    static func estoi(_ x: [Double], _ y: [Double], frames: Int) -> Double {
        let n = segmentFrames
        let segments = frames - n + 1
        var xs = [Double](repeating: 0, count: bandCount * n), ys = xs
        var total = 0.0
        func normalise(_ s: inout [Double]) {
            for b in 0..<bandCount {
                var mean = 0.0
                for t in 0..<n { mean += s[b * n + t] }
                mean /= Double(n)
                var norm = 0.0
                for t in 0..<n { s[b * n + t] -= mean; norm += s[b * n + t] * s[b * n + t] }
                let inv = 1 / norm.squareRoot()
                for t in 0..<n { s[b * n + t] *= inv }
            }
            for t in 0..<n {
                var mean = 0.0
                for b in 0..<bandCount { mean += s[b * n + t] }
                mean /= Double(bandCount)
                var norm = 0.0
                for b in 0..<bandCount { s[b * n + t] -= mean; norm += s[b * n + t] * s[b * n + t] }
                let inv = 1 / norm.squareRoot()
                for b in 0..<bandCount { s[b * n + t] *= inv }
            }
        }
        for m in 0..<segments {
            for b in 0..<bandCount {
                for t in 0..<n {
                    xs[b * n + t] = x[(m + t) * bandCount + b]
                    ys[b * n + t] = y[(m + t) * bandCount + b]
                }
            }
            normalise(&xs); normalise(&ys)
            var sum = 0.0
            for i in 0..<(bandCount * n) { sum += xs[i] * ys[i] }
            total += sum / Double(n)
        }
        return total / Double(segments)
    }
}
