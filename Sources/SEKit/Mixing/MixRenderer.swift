import Foundation

/// One rendered clip: the three stems and what was realised.
public struct RenderedClip: Sendable {
    public var plan: ClipPlan
    /// Noisy mixture, clean target and noise, at the corpus rate, as they will be written
    /// (already quantised to 16-bit steps for PCM16 output, so measurements match the files).
    public var noisy: [Float]
    public var clean: [Float]
    public var noise: [Float]
    /// SNR measured on the written stems, by the run's SNR mode, dB.
    public var snrDBRealised: Double
    /// Mixture level measured on the written noisy stem by the run's level mode, dBFS.
    public var levelDBFSRealised: Double
    /// Linear gain applied to the speech (level and clipping scale included).
    public var speechGain: Double
    /// Linear gain applied to each noise source (in plan order).
    public var noiseGains: [Double]
    /// Scale applied to all stems to avoid clipping (1 when none).
    public var clippingScale: Double
    /// Samples of the noisy stem at or beyond full scale (only under `--clipping allow`).
    public var clippedSamples: Int
    /// Level draws made (more than 1 under `--clipping reject`).
    public var attempts: Int
    /// For PCM16 output, the 16-bit codes of noisy, clean and noise (the floats above are
    /// their values), written as they are.
    public var codes: (noisy: [Int16], clean: [Int16], noise: [Int16])? = nil
}

/// Turns clip plans into audio. Thread-safe: render clips concurrently from several threads.
public final class MixRenderer: Sendable {
    public let planner: MixPlanner
    let sources: SourceCache

    /// Loudness of the mixture, full-scale peak after the clipping rule.
    static let clippingPeak = 0.99
    /// Early reverberation window after the direct path, seconds (`--target early`).
    static let earlyReflectionSeconds = 0.05
    /// Redraws of the level under `--clipping reject` before falling back to rescaling.
    static let maximumRejectAttempts = 20

    public init(planner: MixPlanner, cacheBytes: Int = 1 << 30) {
        self.planner = planner
        self.sources = SourceCache(sampleRate: planner.options.sampleRate, capacityBytes: cacheBytes)
    }

    /// Renders clip `index`.
    /// - Throws: ``AudioError`` for an unreadable source, ``MixError/clipFailed(index:reason:)`` when
    ///   the clip has no measurable speech or noise.
    public func render(index: Int) throws -> RenderedClip {
        let options = planner.options
        var plan = planner.plan(index: index)
        let rate = options.sampleRate
        let length = plan.length

        // Speech, placed in the clip.
        var dry = [Double](repeating: 0, count: length)
        for piece in plan.speech {
            let samples = try sources.samples(of: planner.speech[piece.source])
            let take = min(piece.length, samples.count - piece.offset, length - piece.position)
            if take <= 0 { continue }
            for i in 0..<take { dry[piece.position + i] = Double(samples[piece.offset + i]) }
        }

        // Reverberation: the mixture holds the reverberant speech; the clean stem follows --target.
        // Convolution outputs are aligned on the RIR's direct path (its largest sample), so dry,
        // early and reverberant speech line up in time.
        var mixtureSpeech = dry
        var clean = dry
        if let rirIndex = plan.rir {
            let rir = try sources.samples(of: planner.rirs[rirIndex]).map(Double.init)
            let direct = MixSignals.directPathIndex(rir)
            mixtureSpeech = MixSignals.convolveAligned(dry, rir, start: direct, length: length)
            switch options.target {
            case .dry: clean = dry
            case .reverberant: clean = mixtureSpeech
            case .early:
                let end = min(rir.count, direct + Int((Self.earlyReflectionSeconds * Double(rate)).rounded()) + 1)
                clean = MixSignals.convolveAligned(dry, Array(rir[0..<end]), start: direct, length: length)
            }
        }

        // Noise segments, looped with a crossfade, each from its own offset.
        var noiseStems: [[Double]] = []
        for piece in plan.noises {
            let samples = try sources.samples(of: planner.noise[piece.source])
            noiseStems.append(MixSignals.loopedSegment(samples, offset: piece.offset, length: length,
                crossfade: Int((options.crossfadeSeconds * Double(rate)).rounded())))
        }

        // Band-limiting augmentation applies to every stem, before any level is measured.
        if let cutoff = plan.lowpassHz {
            mixtureSpeech = MixSignals.lowpass(mixtureSpeech, cutoffHz: cutoff, sampleRate: rate)
            clean = plan.rir == nil ? mixtureSpeech : MixSignals.lowpass(clean, cutoffHz: cutoff, sampleRate: rate)
            noiseStems = noiseStems.map { MixSignals.lowpass($0, cutoffHz: cutoff, sampleRate: rate) }
        }

        // SNR: each noise scaled to its share, then the sum scaled so the total hits snrDB exactly.
        let speechPower = try speechPowerForSNR(mixtureSpeech, plan: plan)
        var noiseSum = [Double](repeating: 0, count: length)
        var noiseGains: [Double] = []
        for (stem, piece) in zip(noiseStems, plan.noises) {
            let power = MixSignals.meanSquare(stem)
            guard power > 0 else { throw MixError.clipFailed(index: index, reason: "noise segment of \(planner.noise[piece.source].path) is silent") }
            let gain = (speechPower / (power * pow(10, piece.snrDB / 10))).squareRoot()
            noiseGains.append(gain)
            for i in 0..<length { noiseSum[i] += gain * stem[i] }
        }
        let summedPower = MixSignals.meanSquare(noiseSum)
        guard summedPower > 0 else { throw MixError.clipFailed(index: index, reason: "noises cancel to silence") }
        let correction = (speechPower / (summedPower * pow(10, plan.snrDB / 10))).squareRoot()
        noiseGains = noiseGains.map { $0 * correction }
        for i in 0..<length { noiseSum[i] *= correction }

        // Level and clipping.
        var attempts = 1
        var levelScale = 0.0
        var clippingScale = 1.0
        // The mixture's peak and (for RMS levels) power in one pass; other level modes need the signal.
        let (mixturePeak, mixtureEnergy) = MixSignals.peakAndEnergy(ofSum: mixtureSpeech, noiseSum)
        var mixture: [Double] = []
        let measuredLevel: Double
        if options.levelMode == .rms {
            measuredLevel = 10 * log10(mixtureEnergy / Double(length))
        } else {
            mixture = (0..<length).map { mixtureSpeech[$0] + noiseSum[$0] }
            measuredLevel = try levelDBFS(mixture, mode: options.levelMode)
        }
        while true {
            levelScale = pow(10, (plan.levelDBFS - measuredLevel) / 20)
            let peak = mixturePeak * levelScale
            if peak <= Self.clippingPeak || options.clipping == .allow { break }
            if options.clipping == .reject && attempts < Self.maximumRejectAttempts {
                plan.levelDBFS = planner.plan(index: index, attempt: attempts).levelDBFS
                attempts += 1
                continue
            }
            clippingScale = Self.clippingPeak / peak
            break
        }
        let scale = levelScale * clippingScale
        if options.snrMode == .active {
            // P.56 thresholds are absolute levels, so the active level does not scale exactly with
            // the signal: measure it again at the final scale and correct the noise to the target.
            let scaledSpeech = mixtureSpeech.map { $0 * scale }
            let activeScaled = try speechPowerForSNR(scaledSpeech, plan: plan)
            let noiseScaled = MixSignals.meanSquare(noiseSum) * scale * scale
            let correction = (activeScaled / (noiseScaled * pow(10, plan.snrDB / 10))).squareRoot()
            noiseGains = noiseGains.map { $0 * correction }
            for i in 0..<length { noiseSum[i] *= correction }
        }

        // Stems as written: for PCM16 the 16-bit codes (noisy = clean + noise exactly, in
        // integers, saturating where the mixture clips), for float32 the Float values.
        let quantise = options.format == .pcm16
        let speechOut: [Float], noiseOut: [Float], cleanOut: [Float], noisyOut: [Float]
        var codes: (noisy: [Int16], clean: [Int16], noise: [Int16])? = nil
        var clipped = 0
        let cleanIsSpeech = plan.rir == nil || options.target == .reverberant
        if quantise {
            let speechCodes = PCM16.encode(mixtureSpeech, scale: scale)
            let noiseCodes = PCM16.encode(noiseSum, scale: scale)
            let cleanCodes = cleanIsSpeech ? speechCodes : PCM16.encode(clean, scale: scale)
            var saturated = 0
            let noisyCodes = [Int16](unsafeUninitializedCapacity: length) { out, count in
                speechCodes.withUnsafeBufferPointer { s in
                    noiseCodes.withUnsafeBufferPointer { n in
                        for i in 0..<length {
                            let sum = Int32(s[i]) &+ Int32(n[i])
                            saturated &+= (sum > 32767 || sum < -32768) ? 1 : 0
                            out[i] = Int16(truncatingIfNeeded: min(max(sum, -32768), 32767))
                        }
                    }
                }
                count = length
            }
            clipped = saturated
            codes = (noisyCodes, cleanCodes, noiseCodes)
            speechOut = PCM16.decode(speechCodes)
            noiseOut = PCM16.decode(noiseCodes)
            cleanOut = cleanIsSpeech ? speechOut : PCM16.decode(cleanCodes)
            noisyOut = PCM16.decode(noisyCodes)
        } else {
            speechOut = MixSignals.toFloat(mixtureSpeech, scale: scale)
            noiseOut = MixSignals.toFloat(noiseSum, scale: scale)
            cleanOut = cleanIsSpeech ? speechOut : MixSignals.toFloat(clean, scale: scale)
            noisyOut = [Float](unsafeUninitializedCapacity: length) { out, count in
                speechOut.withUnsafeBufferPointer { s in
                    noiseOut.withUnsafeBufferPointer { n in
                        for i in 0..<length { out[i] = s[i] + n[i] }
                    }
                }
                var fullScale = 0
                for i in 0..<length { fullScale &+= abs(out[i]) >= 1 ? 1 : 0 }
                clipped = fullScale
                count = length
            }
        }

        let realisedSpeech = options.snrMode == .global
            ? MixSignals.meanSquare(speechOut) : try speechPowerForSNR(speechOut.map(Double.init), plan: plan)
        let realisedNoise = MixSignals.meanSquare(noiseOut)
        return RenderedClip(
            plan: plan, noisy: noisyOut, clean: cleanOut, noise: noiseOut,
            snrDBRealised: 10 * log10(realisedSpeech / realisedNoise),
            levelDBFSRealised: options.levelMode == .rms
                ? 10 * log10(MixSignals.meanSquare(noisyOut)) : try levelDBFS(noisyOut.map(Double.init), mode: options.levelMode),
            speechGain: scale, noiseGains: noiseGains.map { $0 * scale },
            clippingScale: clippingScale, clippedSamples: clipped, attempts: attempts, codes: codes)
    }

    /// Speech power for the SNR: mean square over the clip (`global`) or the P.56 active level (`active`).
    private func speechPowerForSNR(_ speech: [Double], plan: ClipPlan) throws -> Double {
        let power: Double
        switch planner.options.snrMode {
        case .global: power = MixSignals.meanSquare(speech)
        case .active: power = try MixSignals.activePower(speech, sampleRate: planner.options.sampleRate)
        }
        guard power > 0 && power.isFinite else {
            throw MixError.clipFailed(index: plan.index, reason: "speech is silent in this clip (\(planner.speech[plan.speech[0].source].path))")
        }
        return power
    }

    private func levelDBFS(_ x: [Double], mode: MixOptions.LevelMode) throws -> Double {
        switch mode {
        case .rms: return 10 * log10(MixSignals.meanSquare(x))
        case .active: return 10 * log10(try MixSignals.activePower(x, sampleRate: planner.options.sampleRate))
        case .lufs: return try MixSignals.loudnessLUFS(x, sampleRate: planner.options.sampleRate)
        }
    }
}
