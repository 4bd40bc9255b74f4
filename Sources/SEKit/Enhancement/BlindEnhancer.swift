import Foundation

/// A blind single-channel speech enhancer (``BlindMethod``) with its parameters, checked once.
///
/// Framing (Loizou's logmmse.m, for every method): frames of L = ⌊frameSeconds·fs⌋ samples (made
/// even) start at 0, L − ⌊L·overlap⌋ apart (the hop); each is multiplied by the window scaled by
/// hop/Σw, zero-padded to fftSize = fftSizeFactor·L and transformed; the gains multiply the
/// spectrum, the first L samples of its inverse are overlap-added at the frame's start, with no
/// synthesis window. Frames continue past the last full one (zero-padded) until every sample is
/// covered, and the output has exactly the input's length. Like the MATLAB code, the first and
/// last hop are covered by one frame only, so they fade in and out with the window's edges.
///
/// Deterministic: the same samples, rate and parameters give the same bits.
public struct BlindEnhancer: Sendable {
    public let method: BlindMethod
    public let parameters: BlindEnhancerParameters

    /// Smallest frame the framing accepts, samples.
    static let minimumFrameLength = 8

    /// - Throws: ``EnhancementError/invalidParameter(name:value:reason:)`` naming the first
    ///   parameter out of range.
    public init(method: BlindMethod, parameters: BlindEnhancerParameters = .init()) throws(EnhancementError) {
        try parameters.validate()
        self.method = method
        self.parameters = parameters
    }

    /// Enhances one mono signal.
    /// - Parameters:
    ///   - noisy: samples (any scale; audio is conventionally within ±1).
    ///   - sampleRate: Hz; the frame must hold at least 8 samples.
    /// - Returns: the enhanced signal, exactly `noisy.count` samples. A signal of zeros gives zeros.
    /// - Throws: ``EnhancementError/nonFiniteSample(index:)``,
    ///   ``EnhancementError/unsupportedSampleRate(_:reason:)``,
    ///   ``EnhancementError/signalTooShort(samples:required:reason:)`` (shorter than one frame, or
    ///   than the noise-only lead-in of the leading estimate),
    ///   ``EnhancementError/invalidParameter(name:value:reason:)`` when `leading-seconds` holds no
    ///   frame at this rate.
    /// Complexity: O(n log L) time; memory O(n + L), allocated once per call.
    public func enhance(_ noisy: [Float], sampleRate: Int) throws(EnhancementError) -> [Float] {
        let framing = try EnhancementFraming(parameters: parameters, sampleRate: sampleRate)
        if let index = Self.firstNonFinite(noisy) { throw .nonFiniteSample(index: index) }
        guard noisy.count >= framing.frameLength else {
            throw .signalTooShort(samples: noisy.count, required: framing.frameLength,
                                  reason: "one \(framing.frameLength)-sample frame "
                                      + "(frame-seconds = \(parameters.frameSeconds) at \(sampleRate) Hz)")
        }
        if parameters.noiseEstimate == .leading, noisy.count < framing.leadingSamples {
            throw .signalTooShort(samples: noisy.count, required: framing.leadingSamples,
                                  reason: "the noise-only lead-in of \(framing.leadingFrames) frames "
                                      + "(leading-seconds = \(parameters.leadingSeconds) at \(sampleRate) Hz)")
        }
        switch method {
        case .specsub:
            return framing.process(noisy, parameters: parameters) { _ in SpectralSubtraction(parameters: parameters) }
        case .mmseSTSA:
            return framing.process(noisy, parameters: parameters) {
                DecisionDirectedRule<ShortTimeSpectralAmplitudeGain>(parameters: parameters, frameLength: framing.frameLength, previous: $0)
            }
        case .logmmse:
            return framing.process(noisy, parameters: parameters) {
                DecisionDirectedRule<LogSpectralAmplitudeGain>(parameters: parameters, frameLength: framing.frameLength, previous: $0)
            }
        case .wiener:
            return framing.process(noisy, parameters: parameters) {
                DecisionDirectedRule<WienerGain>(parameters: parameters, frameLength: framing.frameLength, previous: $0)
            }
        }
    }

    /// Index of the first NaN or infinite sample, if any.
    static func firstNonFinite(_ x: [Float]) -> Int? {
        x.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return nil }
            // x·0 is 0 for finite x and NaN otherwise: one pass with eight running sums and no
            // branch, then a search only when there is one.
            let raw = UnsafeRawPointer(base)
            var probe = SIMD8<Float>()
            let blocks = p.count / 8
            for b in 0..<blocks { probe += raw.loadUnaligned(fromByteOffset: 32 * b, as: SIMD8<Float>.self) * 0 }
            var tail: Float = 0
            for i in (8 * blocks)..<p.count { tail += p[i] * 0 }
            guard probe.sum().isNaN || tail.isNaN else { return nil }
            return p.firstIndex { !$0.isFinite }
        }
    }
}

/// The framing of one enhance call: frame, hop and FFT sizes at the sample rate, and the window.
struct EnhancementFraming {
    let sampleRate: Int
    /// L, samples (even).
    let frameLength: Int
    let hop: Int
    let fftSize: Int
    /// The window scaled by hop/Σw, L samples.
    let window: [Float]
    /// Non-overlapping frames in the leading noise-only segment, and the samples they span.
    let leadingFrames: Int
    var leadingSamples: Int { leadingFrames * frameLength }

    init(parameters: BlindEnhancerParameters, sampleRate: Int) throws(EnhancementError) {
        guard sampleRate > 0 else { throw .unsupportedSampleRate(sampleRate, reason: "must be positive") }
        var length = Self.wholeSamples(parameters.frameSeconds * Double(sampleRate))
        if length % 2 == 1 { length += 1 }
        guard length >= BlindEnhancer.minimumFrameLength else {
            // A frame set by the user is what is wrong; at the default frame, the sample rate is.
            if parameters.frameSeconds != BlindEnhancerParameters().frameSeconds {
                let shortest = Double(BlindEnhancer.minimumFrameLength) / Double(sampleRate)
                throw .invalidParameter(name: "frame-seconds", value: "\(parameters.frameSeconds)",
                    reason: "a frame of \(length) samples at \(sampleRate) Hz is shorter than "
                        + "\(BlindEnhancer.minimumFrameLength) samples; " +
                            "give at least \(String(format: "%.6g", shortest)) s")
            }
            throw .unsupportedSampleRate(sampleRate,
                    reason: "a \(parameters.frameSeconds) s frame holds \(length) samples, fewer than \(BlindEnhancer.minimumFrameLength)")
        }
        self.sampleRate = sampleRate
        frameLength = length
        hop = length - Int((Double(length) * parameters.overlap).rounded(.down))
        fftSize = parameters.fftSizeFactor * length
        let raw = parameters.window.samples(length: length)
        let scale = Double(hop) / raw.reduce(0, +)
        window = raw.map { Float($0 * scale) }
        leadingFrames = Self.wholeSamples(parameters.leadingSeconds * Double(sampleRate) / Double(length))
        guard leadingFrames >= 1 else {
            throw .invalidParameter(name: "leading-seconds", value: "\(parameters.leadingSeconds)",
                                    reason: "holds no \(length)-sample frame at \(sampleRate) Hz")
        }
    }

    /// ⌊x⌋, except that a value within 1e-9 of an integer is that integer (0.02·16000 is 320).
    static func wholeSamples(_ x: Double) -> Int {
        let nearest = x.rounded()
        return Int(abs(x - nearest) < 1e-9 ? nearest : x.rounded(.down))
    }

    /// Frames needed to cover `count` samples.
    func frameCount(samples count: Int) -> Int {
        count <= frameLength ? 1 : 1 + (count - frameLength + hop - 1) / hop
    }

    /// Runs the analysis, the rule `makeRule` builds (given the decision-directed rule's buffer of
    /// the previous frame's clean power), the noise estimate and the overlap-add over `noisy`.
    func process<Rule: SpectralGainRule>(_ noisy: [Float], parameters: BlindEnhancerParameters,
                                         makeRule: (UnsafeMutableBufferPointer<Double>) -> Rule) -> [Float] {
        // The buffers are borrowed for the whole call below, so the pointers taken from them stay
        // valid until it returns (a noncopyable value may otherwise end at its last use).
        process(noisy, parameters: parameters, buffers: SpectralBuffers(fftSize: fftSize), makeRule: makeRule)
    }

    private func process<Rule: SpectralGainRule>(_ noisy: [Float], parameters: BlindEnhancerParameters, buffers: borrowing SpectralBuffers,
                                                 makeRule: (UnsafeMutableBufferPointer<Double>) -> Rule) -> [Float] {
        var rule = makeRule(buffers.previous)
        let leading = parameters.noiseEstimate == .leading
        var tracker = MinimaControlledRecursiveAveraging(parameters: parameters, hopSeconds: Double(hop) / Double(sampleRate),
                                                         buffers: buffers)
        let fft = RealFFT.float(size: fftSize)
        let count = noisy.count, frames = frameCount(samples: count)
        let frameLength = frameLength, hop = hop
        let frame = buffers.frame, spectrum = buffers.spectrum
        let power = buffers.power, noise = buffers.noise, gain = buffers.gain, bins = buffers.bins
        var output = [Float](repeating: 0, count: count)
        noisy.withUnsafeBufferPointer { x in
            window.withUnsafeBufferPointer { w in
                /// Windows the frame starting at `start`, transforms it, and writes |Y|².
                func analyse(_ start: Int) {
                    let available = max(0, min(frameLength, count - start))
                    let source = x.baseAddress! + start  // offset once: the loop below vectorises
                    for i in 0..<available { frame[i] = source[i] * w[i] }
                    for i in available..<frame.count { frame[i] = 0 }
                    fft.forward(UnsafeBufferPointer(frame), into: spectrum)
                    for k in 0..<bins {
                        let re = Double(spectrum[2 * k]), im = Double(spectrum[2 * k + 1])
                        power[k] = re * re + im * im
                    }
                }
                if leading {
                    // λ: the squared mean magnitude of the lead-in's non-overlapping frames.
                    for j in 0..<leadingFrames {
                        analyse(j * frameLength)
                        for k in 0..<bins { noise[k] += power[k].squareRoot() }
                    }
                    let scale = 1 / Double(leadingFrames)
                    for k in 0..<bins { noise[k] = (noise[k] * scale) * (noise[k] * scale) }
                }
                output.withUnsafeMutableBufferPointer { y in
                    for t in 0..<frames {
                        let start = t * hop
                        analyse(start)
                        if !leading && t == 0 { tracker.start(power: power, noise: noise) }
                        let noiseOnly = rule.computeGains(power: power, noise: noise, gain: gain, detectNoise: leading)
                        for k in 0..<bins {
                            let g = Float(gain[k])
                            spectrum[2 * k] *= g
                            spectrum[2 * k + 1] *= g
                        }
                        fft.inverse(UnsafeBufferPointer(spectrum), into: frame)
                        let target = y.baseAddress! + start
                        for i in 0..<min(frameLength, count - start) { target[i] += frame[i] }
                        if leading {
                            if noiseOnly {
                                let mu = rule.noiseSmoothing
                                for k in 0..<bins { noise[k] = mu * noise[k] + (1 - mu) * power[k] }
                            }
                        } else {
                            tracker.update(power: power, noise: noise)
                        }
                    }
                }
            }
        }
        return output
    }
}
