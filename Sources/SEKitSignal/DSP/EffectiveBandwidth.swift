import Foundation

/// The effective bandwidth of a recording: the highest frequency whose long-term power spectrum is
/// within 50 dB of the spectrum's peak (the rule the URGENT challenge uses to find how much of a
/// source's nominal band it really fills, written here from that description).
///
/// The long-term spectrum is the mean, over frames, of the periodic-Hann-windowed power spectra of
/// 32 ms frames every 16 ms (an FFT of `round(0.032 · rate)` samples; the last partial frame is
/// dropped, a signal shorter than one frame is zero-padded to one). The answer is the centre
/// frequency of the highest bin at or above `peak − 50 dB`, in Hz: its resolution is one bin
/// (31.25 Hz). A silent signal has no bandwidth (nil). Fed block by block (``add(_:)``): memory
/// stays one frame and one spectrum whatever the recording's length.
public struct EffectiveBandwidth: Sendable {
    /// How far below the long-term spectrum's peak a bin still counts, dB.
    public static let thresholdDB = 50.0
    /// Analysis frame length, seconds.
    public static let frameSeconds = 0.032
    /// Hop between frames, in frames (half a frame).
    public static let hopFraction = 0.5

    public let sampleRate: Int
    /// FFT and frame length, samples.
    public let frameLength: Int
    let hop: Int
    let window: [Double]
    var pending: [Double] = []
    var powerSum: [Double]
    var frames = 0
    var samplesSeen = 0

    /// An empty accumulator for a signal at `sampleRate` Hz (> 0).
    public init(sampleRate: Int) {
        precondition(sampleRate > 0, "sample rate must be positive")
        self.sampleRate = sampleRate
        frameLength = max(2, Int((Self.frameSeconds * Double(sampleRate)).rounded()))
        hop = max(1, Int(Double(frameLength) * Self.hopFraction))
        window = Window.make(.hann, length: frameLength)
        powerSum = [Double](repeating: 0, count: frameLength / 2 + 1)
    }

    /// Adds the next samples of the signal.
    public mutating func add<S: Sequence>(_ samples: S) where S.Element: BinaryFloatingPoint {
        let before = pending.count
        pending.append(contentsOf: samples.lazy.map { Double($0) })
        samplesSeen += pending.count - before
        var start = 0
        while pending.count - start >= frameLength {
            accumulate(pending[start..<(start + frameLength)])
            start += hop
        }
        if start > 0 { pending.removeFirst(start) }
    }

    /// The effective bandwidth, Hz; nil for a silent (or empty) signal.
    public func result() -> Double? {
        var sums = powerSum, count = frames
        if count == 0 && samplesSeen > 0 {
            var copy = self
            copy.accumulate((pending + [Double](repeating: 0, count: frameLength - pending.count))[...])
            sums = copy.powerSum; count = copy.frames
        }
        guard count > 0, let peak = sums.max(), peak > 0 else { return nil }
        let floor = peak * pow(10, -Self.thresholdDB / 10)
        guard let bin = sums.lastIndex(where: { $0 >= floor }) else { return nil }
        return Double(bin) * Double(sampleRate) / Double(frameLength)
    }

    /// The effective bandwidth of a whole signal, Hz (see the type's description).
    public static func of<S: Sequence>(_ samples: S, sampleRate: Int) -> Double? where S.Element: BinaryFloatingPoint {
        var accumulator = EffectiveBandwidth(sampleRate: sampleRate)
        accumulator.add(samples)
        return accumulator.result()
    }

    mutating func accumulate(_ frame: ArraySlice<Double>) {
        let fft = RealFFT<Double>.double(size: frameLength)
        let first = frame.startIndex
        let windowed = (0..<frameLength).map { frame[first + $0] * window[$0] }
        let spectrum = fft.forward(windowed)
        for bin in 0..<powerSum.count {
            let re = spectrum[2 * bin], im = spectrum[2 * bin + 1]
            powerSum[bin] += re * re + im * im
        }
        frames += 1
    }
}
