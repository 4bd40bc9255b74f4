import Foundation

/// Parameters of a short-time Fourier transform, with the conventions spelled out.
public struct STFTConfiguration: Sendable, Equatable, Codable {
    /// FFT size in samples (`n_fft`); bins = fftSize/2 + 1.
    public var fftSize: Int
    /// Window length in samples (≤ fftSize); the window is zero-padded to fftSize, centred
    /// (librosa's convention).
    public var winLength: Int
    /// Hop in samples.
    public var hopLength: Int
    /// Periodic window (numpy/scipy `sym=False`).
    public var window: WindowKind
    /// Centre frames: pad fftSize/2 zeros on both sides so frame t is centred on sample t·hop
    /// (librosa `center=True, pad_mode="constant"`). Frames: 1 + n/hop with centring,
    /// 1 + (n − fftSize)/hop without (0 when n < fftSize); integer division.
    public var center: Bool

    /// 16 kHz speech defaults: 512-point FFT, 32 ms Hann window (512), hop 256 (50% overlap), centred.
    public init(fftSize: Int = 512, winLength: Int? = nil, hopLength: Int? = nil, window: WindowKind = .hann, center: Bool = true) {
        self.fftSize = fftSize
        self.winLength = winLength ?? fftSize
        self.hopLength = hopLength ?? fftSize / 2
        self.window = window
        self.center = center
    }

    /// Number of frequency bins.
    public var binCount: Int { fftSize / 2 + 1 }

    /// Checks the parameters.
    /// - Throws: ``DSPError/invalidParameter(name:value:reason:)`` naming the parameter.
    public func validate() throws(DSPError) {
        guard fftSize >= 2 else { throw DSPError.invalidParameter(name: "n-fft", value: "\(fftSize)", reason: "must be at least 2") }
        guard winLength >= 1 && winLength <= fftSize else {
            throw DSPError.invalidParameter(name: "win-length", value: "\(winLength)", reason: "must be in 1...n-fft (\(fftSize))")
        }
        guard hopLength >= 1 else { throw DSPError.invalidParameter(name: "hop-length", value: "\(hopLength)", reason: "must be positive") }
        guard hopLength <= winLength else {
            throw DSPError.invalidParameter(name: "hop-length", value: "\(hopLength)",
                reason: "must not exceed win-length (\(winLength)): samples between frames would never be analysed nor resynthesised")
        }
    }

    /// Frames for a signal of `count` samples.
    public func frameCount(samples count: Int) -> Int {
        if center { return 1 + count / hopLength }
        return count >= fftSize ? 1 + (count - fftSize) / hopLength : 0
    }

    /// The analysis window, zero-padded to fftSize and centred.
    public func paddedWindow() -> [Float] {
        let w = Window.make(window, length: winLength, periodic: true)
        var out = [Float](repeating: 0, count: fftSize)
        let left = (fftSize - winLength) / 2
        for i in 0..<winLength { out[left + i] = Float(w[i]) }
        return out
    }
}

/// A complex spectrogram: `frames × bins`, row-major, interleaved re/im (`[t][k][re, im]`).
public struct Spectrogram: Sendable, Equatable {
    public var configuration: STFTConfiguration
    public var frames: Int
    public var bins: Int { configuration.binCount }
    /// `frames · bins · 2` values.
    public var values: [Float]

    package init(configuration: STFTConfiguration, frames: Int, values: [Float]) {
        self.configuration = configuration; self.frames = frames; self.values = values
    }

    /// |X|, `frames × bins` row-major.
    public func magnitude() -> [Float] {
        [Float](unsafeUninitializedCapacity: frames * bins) { out, count in
            values.withUnsafeBufferPointer { v in
                for i in 0..<(frames * bins) { out[i] = (v[2 * i] * v[2 * i] + v[2 * i + 1] * v[2 * i + 1]).squareRoot() }
            }
            count = frames * bins
        }
    }

    /// |X|², `frames × bins` row-major.
    public func power() -> [Float] { magnitude().map { $0 * $0 } }

    /// Phase angle in radians, `frames × bins` row-major.
    public func phase() -> [Float] {
        (0..<(frames * bins)).map { atan2(values[2 * $0 + 1], values[2 * $0]) }
    }
}

/// STFT and inverse STFT with FFTW.
public enum STFT {
    /// Forward STFT of `signal`. Frames are computed in parallel chunks (`jobs` threads); output does
    /// not depend on `jobs`. No allocation per frame.
    /// - Throws: ``DSPError/invalidParameter(name:value:reason:)`` for bad parameters.
    public static func forward(_ signal: [Float], configuration c: STFTConfiguration, jobs: Int = 1) throws(DSPError) -> Spectrogram {
        try c.validate()
        let frames = c.frameCount(samples: signal.count)
        let bins = c.binCount, n = c.fftSize
        let window = c.paddedWindow()
        var values = [Float](repeating: 0, count: frames * bins * 2)
        let chunk = 256
        let chunks = (frames + chunk - 1) / chunk
        values.withUnsafeMutableBufferPointer { outBuffer in
            nonisolated(unsafe) let out = outBuffer
            signal.withUnsafeBufferPointer { inBuffer in
                nonisolated(unsafe) let x = inBuffer
                DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, chunks))) { worker in
                    var frame = [Float](repeating: 0, count: n)
                    frame.withUnsafeMutableBufferPointer { f in
                        var k = worker
                        while k < chunks {
                            let first = k * chunk, end = min(frames, (k + 1) * chunk)
                            spectra(x, configuration: c, firstFrame: first, frameCount: end - first, window: window, frame: f,
                                    into: UnsafeMutableBufferPointer(rebasing: out[(first * bins * 2)..<(end * bins * 2)]))
                            k += max(1, min(jobs, chunks))
                        }
                    }
                }
            }
        }
        return Spectrogram(configuration: c, frames: frames, values: values)
    }

    /// Complex spectra of frames `firstFrame ..< firstFrame + frameCount` of `signal`, written
    /// row-major with re/im interleaved (`frameCount × bins × 2`) into `output`, using `frame`
    /// (`fftSize` samples) as scratch: a block of ``forward(_:configuration:jobs:)``'s frames, the
    /// same values when each frame's output lies at the same address modulo 16 as in `forward`'s
    /// array (FFTW picks its codelets by alignment). Frame t covers samples
    /// `t·hop − pad ..< t·hop − pad + fftSize`, zero outside the signal.
    public static func spectra(_ signal: UnsafeBufferPointer<Float>, configuration c: STFTConfiguration, firstFrame: Int,
                               frameCount: Int, window: [Float], frame: UnsafeMutableBufferPointer<Float>,
                               into output: UnsafeMutableBufferPointer<Float>) {
        let n = c.fftSize, hop = c.hopLength, bins = c.binCount
        let pad = c.center ? n / 2 : 0
        precondition(output.count >= frameCount * bins * 2 && window.count == n && frame.count == n, "STFT.spectra: buffer sizes")
        let fft = RealFFT.float(size: n)
        for f in 0..<frameCount {
            windowedFrame(signal, start: (firstFrame + f) * hop - pad, window: window, into: frame)
            fft.forward(UnsafeBufferPointer(frame),
                        into: UnsafeMutableBufferPointer(rebasing: output[(f * bins * 2)..<((f + 1) * bins * 2)]))
        }
    }

    /// STFT magnitudes |X| of frames `firstFrame ..< firstFrame + frameCount` of `signal`, written
    /// row-major (`frameCount × bins`) into `output`, without the complex intermediate and without
    /// allocating per call beyond one frame of scratch: the streaming path for feature export.
    /// Frame t covers samples `t·hop − pad ..< t·hop − pad + fftSize` (pad = fftSize/2 when centred),
    /// zero outside the signal.
    public static func magnitudes(_ signal: UnsafeBufferPointer<Float>, configuration c: STFTConfiguration,
                                  firstFrame: Int, frameCount: Int, window: [Float], scratch: inout [Float],
                                  into output: UnsafeMutableBufferPointer<Float>) {
        let n = c.fftSize, hop = c.hopLength, bins = c.binCount
        let pad = c.center ? n / 2 : 0
        precondition(output.count >= frameCount * bins && window.count == n, "STFT.magnitudes: buffer sizes")
        if scratch.count != n + 2 * bins { scratch = [Float](repeating: 0, count: n + 2 * bins) }
        let fft = RealFFT.float(size: n)
        scratch.withUnsafeMutableBufferPointer { s in
            let frame = UnsafeMutableBufferPointer(rebasing: s[0..<n])
            let spectrum = UnsafeMutableBufferPointer(rebasing: s[n..<(n + 2 * bins)])
            for f in 0..<frameCount {
                windowedFrame(signal, start: (firstFrame + f) * hop - pad, window: window, into: frame)
                fft.forward(UnsafeBufferPointer(frame), into: spectrum)
                let row = f * bins
                for k in 0..<bins {
                    let re = spectrum[2 * k], im = spectrum[2 * k + 1]
                    output[row + k] = (re * re + im * im).squareRoot()
                }
            }
        }
    }

    /// Samples `start ..< start + frame.count` of `signal` times `window`, into `frame`; samples
    /// outside the signal (before 0 or past the end) are zero. `window.count == frame.count`.
    @inline(__always)
    static func windowedFrame(_ signal: UnsafeBufferPointer<Float>, start: Int, window: [Float],
                              into frame: UnsafeMutableBufferPointer<Float>) {
        let n = frame.count
        if start >= 0 && start + n <= signal.count {
            for i in 0..<n { frame[i] = signal[start + i] * window[i] }
        } else {
            for i in 0..<n {
                let j = start + i
                frame[i] = (j >= 0 && j < signal.count) ? signal[j] * window[i] : 0
            }
        }
    }

    /// Inverse STFT by weighted overlap-add: each frame's inverse FFT is multiplied by the window,
    /// summed, and divided by the summed squared window where that sum exceeds 1e-8 (librosa's
    /// `istft`). With `center`, the padding is removed. `length` trims or zero-pads the result.
    public static func inverse(_ spectrogram: Spectrogram, length: Int? = nil) throws(DSPError) -> [Float] {
        let c = spectrogram.configuration
        try c.validate()
        let n = c.fftSize, hop = c.hopLength, bins = c.binCount, frames = spectrogram.frames
        let window = c.paddedWindow()
        let fft = RealFFT.float(size: n)
        let total = frames > 0 ? n + hop * (frames - 1) : 0
        var output = [Double](repeating: 0, count: total)
        var norm = [Double](repeating: 0, count: total)
        var frame = [Float](repeating: 0, count: n)
        spectrogram.values.withUnsafeBufferPointer { v in
            for t in 0..<frames {
                frame.withUnsafeMutableBufferPointer { f in
                    fft.inverse(UnsafeBufferPointer(rebasing: v[(t * bins * 2)..<((t + 1) * bins * 2)]), into: f)
                }
                let start = t * hop
                for i in 0..<n {
                    output[start + i] += Double(frame[i] * window[i])
                    norm[start + i] += Double(window[i] * window[i])
                }
            }
        }
        for i in 0..<total where norm[i] > 1e-8 { output[i] /= norm[i] }
        let pad = c.center ? n / 2 : 0
        let wanted = length ?? max(0, total - 2 * pad)
        return (0..<wanted).map { i in i + pad < total ? Float(output[i + pad]) : 0 }
    }
}
