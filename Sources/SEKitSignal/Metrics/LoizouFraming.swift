import Foundation

/// Framing and helper conventions shared by the MATLAB objective measures of Loizou,
/// "Speech Enhancement: Theory and Practice" (2nd ed., 2013): comp_fwseg.m, comp_llr.m,
/// comp_wss.m and comp_cep.m (LPC and critical-band routines by B. Pellom and J. Hansen).
///
/// Conventions reproduced exactly:
/// - MATLAB `eps` (2.220446049250313e-16) is added to every sample of both signals first;
/// - frames are `round(0.03·fs)` samples, hop `floor(len/4)` (75% overlap);
/// - the frame count is `floor(N/hop − len/hop)`, evaluated in floating point as MATLAB does;
/// - each frame is weighted by MATLAB's `hanning(len)`, `0.5·(1 − cos(2πn/(len+1)))`, n = 1...len.
struct LoizouFraming {
    /// MATLAB `eps`.
    static let matlabEps = 2.220446049250313e-16

    let length: Int
    let hop: Int
    let count: Int
    let window: [Double]

    /// Validates the pair and sets up the frames for `metric`.
    /// - Throws: ``MetricError`` for length mismatch, non-finite samples, a non-positive
    ///   sample rate or a signal shorter than one frame.
    init<T: MetricSample>(metric: String, reference: [T], processed: [T], sampleRate: Int) throws {
        try MetricError.checkPair(reference, processed)
        guard sampleRate > 0 else {
            throw MetricError.invalidParameter(name: "sampleRate", value: "\(sampleRate)", reason: "must be positive")
        }
        length = Int((30.0 * Double(sampleRate) / 1000).rounded())
        hop = length / 4
        guard hop > 0 else {
            throw MetricError.invalidParameter(name: "sampleRate", value: "\(sampleRate)", reason: "30 ms frames need at least 4 samples")
        }
        let n = Double(reference.count) / Double(hop) - Double(length) / Double(hop)
        count = n >= 1 ? Int(n.rounded(.down)) : 0
        guard count >= 1 else {
            throw MetricError.tooShort(metric: metric, samples: reference.count,
                                       reason: "needs at least one \(length)-sample frame and hop")
        }
        window = Window.matlabHanning(length: length)
    }

    /// Frame `f` of `signal` (with MATLAB eps added to each sample), multiplied by the window.
    func frame<T: MetricSample>(_ f: Int, of signal: [T]) -> [Double] {
        let start = f * hop
        return (0..<length).map { (signal[start + $0].double + Self.matlabEps) * window[$0] }
    }

    /// Mean of the lowest `round(0.95·n)` values (MATLAB `sort` then `mean(v(1:round(n*alpha)))`),
    /// as comp_llr.m, comp_wss.m and comp_cep.m do to discard the worst 5% of frames.
    static func trimmedMean(_ values: [Double], alpha: Double = 0.95) -> Double {
        let sorted = values.sorted()
        let keep = max(1, Int((Double(sorted.count) * alpha).rounded()))
        var sum = 0.0
        for i in 0..<keep { sum += sorted[i] }
        return sum / Double(keep)
    }

    /// `2^nextpow2(2·len)`.
    var fftSize: Int {
        var n = 1
        while n < 2 * length { n *= 2 }
        return n
    }
}

/// The 25 critical-band filters of comp_fwseg.m and comp_wss.m (Pellom & Hansen): Gaussian-shaped
/// responses `exp(−11·((j − floor(f0))/bw)² + log(bw_min) − log(bw_i))` over FFT bins
/// j = 0..<nfft/2, with `f0` and `bw` the centre frequency and bandwidth in bins, zeroed below
/// the −30 dB point `exp(−30/(2·2.303))`.
enum CriticalBands {
    static let centreFrequencies: [Double] = [
        50.0000, 120.000, 190.000, 260.000, 330.000, 400.000, 470.000, 540.000, 617.372, 703.378,
        798.717, 904.128, 1020.38, 1148.30, 1288.72, 1442.54, 1610.70, 1794.16, 1993.93, 2211.08,
        2446.71, 2701.97, 2978.04, 3276.17, 3597.63,
    ]
    static let bandwidths: [Double] = [
        70.0000, 70.0000, 70.0000, 70.0000, 70.0000, 70.0000, 70.0000, 77.3724, 86.0056, 95.3398,
        105.411, 116.256, 127.914, 140.423, 153.823, 168.154, 183.457, 199.776, 217.153, 235.631,
        255.255, 276.072, 298.126, 321.465, 346.136,
    ]

    /// Filters as rows of `halfSize` weights, for sample rate `sampleRate` and FFT size `2·halfSize`.
    static func filters(sampleRate: Int, halfSize: Int) -> [[Double]] {
        let maxFrequency = Double(sampleRate) / 2
        let bwMin = bandwidths[0]
        let minFactor = exp(-30.0 / (2.0 * 2.303))
        return (0..<centreFrequencies.count).map { i in
            let f0 = (centreFrequencies[i] / maxFrequency) * Double(halfSize)
            let bw = (bandwidths[i] / maxFrequency) * Double(halfSize)
            let norm = log(bwMin) - log(bandwidths[i])
            let centre = f0.rounded(.down)
            return (0..<halfSize).map { j in
                let d = (Double(j) - centre) / bw
                let v = exp(-11 * (d * d) + norm)
                return v > minFactor ? v : 0
            }
        }
    }

    /// A filter's non-zero weights, from bin `firstBin` on.
    struct Support {
        let firstBin: Int
        let weights: [Double]
    }

    /// ``filters(sampleRate:halfSize:)`` without their zero weights at either end (each filter is
    /// non-zero on one short run of bins around its centre).
    static func supports(sampleRate: Int, halfSize: Int) -> [Support] {
        filters(sampleRate: sampleRate, halfSize: halfSize).map { filter in
            guard let first = filter.firstIndex(where: { $0 != 0 }), let last = filter.lastIndex(where: { $0 != 0 }) else {
                return Support(firstBin: 0, weights: [])
            }
            return Support(firstBin: first, weights: Array(filter[first...last]))
        }
    }

    /// Zero-padded FFT magnitudes `|X[k]|`, k = 0..<nfft/2, of `frame` (MATLAB `abs(fft(frame, nfft))`).
    static func magnitudes(_ frame: [Double], fft: RealFFT<Double>) -> [Double] {
        var padded = [Double](repeating: 0, count: fft.size)
        for i in 0..<min(frame.count, fft.size) { padded[i] = frame[i] }
        let bins = fft.forward(padded)
        return (0..<(fft.size / 2)).map { hypot(bins[2 * $0], bins[2 * $0 + 1]) }
    }
}
