import Foundation

/// The stems of one clip as read for feature export (clean and noise only when a stream needs them).
struct ClipStems {
    var noisy: [Float]
    var clean: [Float]?
    var noise: [Float]?
}

/// The feature streams of one clip, computed for any range of its frames: the whole clip at once
/// (the spectra each stream needs are then computed once and shared), or a block of frames at a
/// time for a clip too long to hold whole streams of. A frame's values never depend on the range
/// it is computed in: each frame's FFT sees the same samples, and every step after it is per bin.
struct ClipFeatures {
    let stems: ClipStems
    let options: FeatureExportOptions
    /// Frames of the clip (`STFTConfiguration.frameCount(samples:)`).
    let frameCount: Int
    private let window: [Float]
    /// The range the cached spectra below are of.
    private var range = 0..<0
    private var magnitudes: [String: [Float]] = [:]
    private var spectra: [String: [Float]] = [:]
    private var scratch: [Float] = []
    private var frame: [Float]

    init(_ stems: ClipStems, options: FeatureExportOptions) {
        self.stems = stems
        self.options = options
        frameCount = options.stft.frameCount(samples: stems.noisy.count)
        window = options.stft.paddedWindow()
        frame = [Float](repeating: 0, count: options.stft.fftSize)
    }

    /// Values of stream `stream` (`noisy` or a ``FeatureTarget``) for frames `frames`,
    /// `frames.count × bins` row-major.
    mutating func values(of stream: String, frames: Range<Int>) -> [Float] {
        if frames != range { range = frames; magnitudes = [:]; spectra = [:] }
        let count = frames.count * options.stft.binCount
        let kind = options.feature, exponent = Float(options.exponent)
        func feature(_ magnitude: [Float]) -> [Float] {
            if kind == .magnitude { return magnitude }
            var out = magnitude
            for i in 0..<count { out[i] = kind.apply(out[i], exponent: exponent) }
            return out
        }
        guard let target = FeatureTarget(rawValue: stream) else { return feature(magnitude(of: "noisy")) }
        if target == .clean || target == .noise { return feature(magnitude(of: stream)) }
        var out = [Float](repeating: 0, count: count)
        switch target {
        case .clean, .noise: break
        case .irm:
            let s = magnitude(of: "clean"), n = magnitude(of: "noise")
            for i in 0..<count { out[i] = IdealMask.ratio(speech: s[i], noise: n[i]) }
        case .ibm:
            let s = magnitude(of: "clean"), n = magnitude(of: "noise")
            let threshold = Float(pow(10, options.lcDB / 10))
            for i in 0..<count { out[i] = IdealMask.binary(speech: s[i], noise: n[i], threshold: threshold) }
        case .psm:
            let s = spectrum(of: "clean"), y = spectrum(of: "noisy")
            for i in 0..<count {
                out[i] = IdealMask.phaseSensitive(speechReal: s[2 * i], speechImaginary: s[2 * i + 1],
                                                  noisyReal: y[2 * i], noisyImaginary: y[2 * i + 1])
            }
        case .noisyPhase:
            let y = spectrum(of: "noisy")
            for i in 0..<count { out[i] = atan2(y[2 * i + 1], y[2 * i]) }
        }
        return out
    }

    /// The stem named `name`.
    private func stem(_ name: String) -> [Float] {
        switch name {
        case "clean": stems.clean!
        case "noise": stems.noise!
        default: stems.noisy
        }
    }

    /// |X| of stem `name` over ``range``, computed once per range.
    private mutating func magnitude(of name: String) -> [Float] {
        if let found = magnitudes[name] { return found }
        let c = options.stft, frames = range, window = window
        var out = [Float](repeating: 0, count: frames.count * c.binCount)
        stem(name).withUnsafeBufferPointer { signal in
            out.withUnsafeMutableBufferPointer { o in
                STFT.magnitudes(signal, configuration: c, firstFrame: frames.lowerBound, frameCount: frames.count, window: window,
                                scratch: &scratch, into: o)
            }
        }
        magnitudes[name] = out
        return out
    }

    /// The complex spectrum (re/im interleaved) of stem `name` over ``range``, computed once per range.
    ///
    /// FFTW chooses its codelets by the 16-byte alignment of the arrays, which changes the last
    /// bits: frame t of a whole-clip spectrogram lies t·bins·8 bytes into its array (aligned for
    /// even t, as bins is odd), so a block starting at an odd frame is computed one frame into its
    /// array, keeping every frame's alignment, and values, those of the whole clip.
    private mutating func spectrum(of name: String) -> [Float] {
        if let found = spectra[name] { return found }
        let c = options.stft, frames = range, window = window
        let skipped = frames.lowerBound % 2 * c.binCount * 2
        var out = [Float](repeating: 0, count: skipped + frames.count * c.binCount * 2)
        stem(name).withUnsafeBufferPointer { signal in
            frame.withUnsafeMutableBufferPointer { f in
                out.withUnsafeMutableBufferPointer { o in
                    STFT.spectra(signal, configuration: c, firstFrame: frames.lowerBound, frameCount: frames.count, window: window,
                                 frame: f,
                                 into: UnsafeMutableBufferPointer(rebasing: o[skipped...]))
                }
            }
        }
        out.removeFirst(skipped)
        spectra[name] = out
        return out
    }
}
