import Foundation

/// A fourth-order gammatone filterbank on the ERB scale, each channel a cascade of four second-order
/// sections: Slaney's design ("An efficient implementation of the Patterson–Holdsworth auditory filter
/// bank", Apple Technical Report 35, 1993; `MakeERBFilters`/`ERBFilterBank` of his Auditory Toolbox),
/// with Glasberg & Moore's ERB (ear Q 9.26449, minimum bandwidth 24.7 Hz).
///
/// Channels are ordered from the highest centre frequency (just under Nyquist) to the lowest
/// (`lowFrequencyHz`), as the toolbox and the `gammatone` Python package order them. Each channel is
/// normalised to unit gain at its centre frequency. Coefficients are computed in double precision.
public struct GammatoneFilterbank: Sendable {
    /// Glasberg & Moore's ear quality factor.
    public static let earQ = 9.26449
    /// Glasberg & Moore's minimum bandwidth, Hz.
    public static let minimumBandwidthHz = 24.7

    /// One channel: four sections sharing a denominator, and the gain that normalises the cascade.
    public struct Channel: Sendable {
        /// Centre frequency, Hz.
        public var centreFrequencyHz: Double
        /// Numerators `[b0, b1, b2]` of the four sections (`b0` and `b2` shared: `T` and 0).
        public var numerators: [(Double, Double, Double)]
        /// The shared denominator `[1, a1, a2]` of the four sections.
        public var a1: Double, a2: Double
        /// Magnitude of the unnormalised cascade at the centre frequency; the output is divided by it.
        public var gain: Double
    }

    /// Sample rate, Hz.
    public let sampleRate: Int
    /// The channels, highest centre frequency first.
    public let channels: [Channel]

    /// `count` channels spaced uniformly on the ERB scale from `lowFrequencyHz` up to half the sample rate.
    public init(sampleRate: Int, count: Int, lowFrequencyHz: Double) {
        self.sampleRate = sampleRate
        channels = Self.centreFrequencies(sampleRate: sampleRate, count: count, lowFrequencyHz: lowFrequencyHz)
            .map { Self.channel(centreFrequencyHz: $0, sampleRate: sampleRate) }
    }

    /// Centre frequencies (Hz), highest first: `count` points uniformly spaced on the ERB-rate scale
    /// between `lowFrequencyHz` (the last) and half the sample rate (excluded).
    public static func centreFrequencies(sampleRate: Int, count: Int, lowFrequencyHz: Double) -> [Double] {
        let high = Double(sampleRate) / 2, offset = earQ * minimumBandwidthHz
        let step = (-log(high + offset) + log(lowFrequencyHz + offset)) / Double(count)
        return (1...count).map { -offset + exp(Double($0) * step) * (high + offset) }
    }

    /// Equivalent rectangular bandwidth (Hz) at `frequencyHz`: f / earQ + minimum bandwidth.
    public static func erbHz(at frequencyHz: Double) -> Double { frequencyHz / earQ + minimumBandwidthHz }

    /// Slaney's four-section design of one channel.
    static func channel(centreFrequencyHz cf: Double, sampleRate: Int) -> Channel {
        let t = 1 / Double(sampleRate)
        let bandwidth = 1.019 * 2 * Double.pi * erbHz(at: cf)
        let arg = 2 * cf * Double.pi * t
        let decay = exp(bandwidth * t)
        let common = -t * exp(-(bandwidth * t))
        let rootPlus = (3 + pow(2, 1.5)).squareRoot(), rootMinus = (3 - pow(2, 1.5)).squareRoot()
        let ks = [cos(arg) + rootPlus * sin(arg), cos(arg) - rootPlus * sin(arg),
                  cos(arg) + rootMinus * sin(arg), cos(arg) - rootMinus * sin(arg)]
        // |H(e^{j·arg})| of the unnormalised cascade, with complex arithmetic spelled out.
        let vec = Complex(cos(2 * arg), sin(2 * arg))
        let gainArgument = Complex(cos(arg), sin(arg)).scaled(exp(-bandwidth * t))
        var product = Complex(1, 0)
        for k in ks { product = product * (vec - gainArgument.scaled(k)) }
        let denominator = Complex(-1 / decay + 1, 0) + vec.scaled(1 - decay)
        let ratio = Complex(t * decay, 0) / denominator
        let ratio4 = ratio * ratio * ratio * ratio
        return Channel(centreFrequencyHz: cf, numerators: ks.map { (t, common * $0, 0) },
                       a1: -2 * cos(arg) / decay, a2: exp(-2 * bandwidth * t), gain: (product * ratio4).magnitude)
    }

    /// A minimal complex number for the gain formula.
    private struct Complex {
        var re: Double, im: Double
        init(_ re: Double, _ im: Double) { self.re = re; self.im = im }
        var magnitude: Double { (re * re + im * im).squareRoot() }
        func scaled(_ s: Double) -> Complex { Complex(re * s, im * s) }
        static func + (l: Complex, r: Complex) -> Complex { Complex(l.re + r.re, l.im + r.im) }
        static func - (l: Complex, r: Complex) -> Complex { Complex(l.re - r.re, l.im - r.im) }
        static func * (l: Complex, r: Complex) -> Complex { Complex(l.re * r.re - l.im * r.im, l.re * r.im + l.im * r.re) }
        static func / (l: Complex, r: Complex) -> Complex {
            let d = r.re * r.re + r.im * r.im
            return Complex((l.re * r.re + l.im * r.im) / d, (l.im * r.re - l.re * r.im) / d)
        }
    }
}

extension GammatoneFilterbank.Channel {
    /// Filters `input` through the four sections into `output` (both `count` samples), dividing by
    /// ``gain`` at the end. `clampingEachSection` clips each section's output to [−1, 1], as
    /// `torchaudio.functional.lfilter` does by default (the SRMR reference). `scratch` holds `count`
    /// samples. Allocates nothing.
    public func filter(_ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>,
                       scratch: UnsafeMutableBufferPointer<Double>, clampingEachSection: Bool) {
        let count = input.count
        precondition(output.count == count && scratch.count == count, "GammatoneFilterbank: buffer sizes")
        // Sections alternate between the two buffers so the fourth lands in `output`.
        var source = input
        for (index, numerator) in numerators.enumerated() {
            let target = index % 2 == 0 ? scratch : output
            SecondOrderSection.run(b: numerator, a1: a1, a2: a2, input: source, output: target, clamp: clampingEachSection)
            source = UnsafeBufferPointer(target)
        }
        for i in 0..<count { output[i] /= gain }
    }
}

/// A direct-form second-order IIR section, `y[n] = b0·x[n] + b1·x[n−1] + b2·x[n−2] − a1·y[n−1] − a2·y[n−2]`
/// (`a0` already divided out), from rest.
enum SecondOrderSection {
    /// Runs the section over `input` into `output` (the same count; they may not overlap), optionally
    /// clipping each output sample to [−1, 1] after the whole section (torchaudio's `clamp`).
    @inline(__always)
    static func run(b: (Double, Double, Double), a1: Double, a2: Double, input: UnsafeBufferPointer<Double>,
                    output: UnsafeMutableBufferPointer<Double>, clamp: Bool) {
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        for n in 0..<input.count {
            let x = input[n]
            let y = (b.0 * x + b.1 * x1 + b.2 * x2) - (a2 * y2 + a1 * y1)
            x2 = x1; x1 = x; y2 = y1; y1 = y
            output[n] = y
        }
        if clamp {
            for n in 0..<output.count { output[n] = min(max(output[n], -1), 1) }
        }
    }
}
