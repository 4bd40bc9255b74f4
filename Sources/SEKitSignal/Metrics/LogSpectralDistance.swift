import Foundation

/// Log-spectral distance (LSD), dB: the root-mean-square difference of two signals' log power
/// spectra in each short-time frame, averaged over frames (Gray & Markel, "Distance measures for
/// speech processing", IEEE TASSP 1976; in the frame-averaged STFT form of Kuleshov, Enam & Ermon,
/// "Audio super resolution using neural networks", ICLR workshop 2017, used by NVSR and AudioSR).
///
/// LSD = (1/T) Σₜ √( (1/K) Σₖ (10·log10(|S(t,k)|² + ε) − 10·log10(|Ŝ(t,k)|² + ε))² ), with
/// S and Ŝ the short-time spectra of the reference and processed signals: frames of 2048 samples
/// hopped by 512 (those lying wholly inside the signal, no padding), a periodic Hann window,
/// unnormalised 2048-point FFTs, every bin from 0 Hz to the Nyquist frequency (K = 1025), and a power floor
/// ε = 1e-10. Ten times the log10 form of those papers (which is in bels). The frame is 2048
/// samples at every rate (128 ms at 16 kHz). 0 for identical signals; lower is better.
public enum LogSpectralDistance {
    /// Frame length and FFT size, samples.
    static let frameLength = 2048
    /// Hop between frames, samples.
    static let hopLength = 512
    /// Added to every bin's power before the logarithm.
    static let powerFloor = 1e-10

    /// LSD of `processed` against `reference`, dB.
    /// - Throws: ``MetricError`` for mismatched lengths, non-finite samples, or fewer than 2048 samples.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func compute<T: MetricSample>(reference: [T], processed: [T]) throws -> Double {
        try MetricError.checkPair(reference, processed)
        guard reference.count >= frameLength else {
            throw MetricError.tooShort(metric: "lsd", samples: reference.count, reason: "needs at least one \(frameLength)-sample frame")
        }
        let frames = 1 + (reference.count - frameLength) / hopLength
        let fft = RealFFT<Double>.double(size: frameLength)
        let window = Window.make(.hann, length: frameLength)
        let bins = fft.binCount
        var frameA = [Double](repeating: 0, count: frameLength), frameB = frameA
        var spectrumA = [Double](repeating: 0, count: 2 * bins), spectrumB = spectrumA
        var total = 0.0
        for f in 0..<frames {
            let start = f * hopLength
            for i in 0..<frameLength {
                frameA[i] = reference[start + i].double * window[i]
                frameB[i] = processed[start + i].double * window[i]
            }
            frameA.withUnsafeBufferPointer { a in spectrumA.withUnsafeMutableBufferPointer { fft.forward(a, into: $0) } }
            frameB.withUnsafeBufferPointer { b in spectrumB.withUnsafeMutableBufferPointer { fft.forward(b, into: $0) } }
            var squares = 0.0
            for k in 0..<bins {
                let powerA = spectrumA[2 * k] * spectrumA[2 * k] + spectrumA[2 * k + 1] * spectrumA[2 * k + 1]
                let powerB = spectrumB[2 * k] * spectrumB[2 * k] + spectrumB[2 * k + 1] * spectrumB[2 * k + 1]
                let difference = 10 * log10(powerA + powerFloor) - 10 * log10(powerB + powerFloor)
                squares += difference * difference
            }
            total += (squares / Double(bins)).squareRoot()
        }
        return total / Double(frames)
    }
}
