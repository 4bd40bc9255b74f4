import Foundation

/// One rendered clip: the three stems and what was realised.
public struct RenderedClip: Sendable {
    public var plan: ClipPlan
    /// The stems as written: 16-bit codes for PCM16 output, Float values for float32 output.
    public enum Stems: Sendable {
        /// Noisy, clean and noise as 16-bit codes (noisy = clean + noise exactly, in integers,
        /// saturating where the mixture clips); sample value = code / 32768.
        case pcm16(noisy: [Int16], clean: [Int16], noise: [Int16])
        case float32(noisy: [Float], clean: [Float], noise: [Float])
    }
    public var stems: Stems
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
    /// The degradations applied to the noisy stem, with their realised figures (nil when the mix
    /// enables none).
    public var degradations: [Degradation]? = nil
    /// The RIR's first arrival, samples at the corpus rate (reverberated clips of onset-aligned mixes).
    public var rirOnsetSamples: Int? = nil

    /// The stems' sample values (decoded from the codes for PCM16, each only when asked for).
    public var noisy: [Float] {
        switch stems { case let .pcm16(noisy, _, _): PCM16.decode(noisy); case let .float32(noisy, _, _): noisy }
    }
    public var clean: [Float] {
        switch stems { case let .pcm16(_, clean, _): PCM16.decode(clean); case let .float32(_, clean, _): clean }
    }
    public var noise: [Float] {
        switch stems { case let .pcm16(_, _, noise): PCM16.decode(noise); case let .float32(_, _, noise): noise }
    }
}

/// Turns clip plans into audio. Thread-safe: render clips concurrently from several threads.
///
/// A clip is rendered in four steps, each its own function: the clip's signals (speech placed,
/// noise segments cut, then the ``MixPipeline`` stages: reverberation, band limitation), the
/// noise gains for the SNR, the level and clipping scale, and the stems as written with what was
/// realised.
public final class MixRenderer: Sendable {
    public let planner: MixPlanner
    let sources: SourceCache
    /// The processing stages, in order (``MixPipeline/stages(for:)``).
    let stages: [any MixStage]

    /// Loudness of the mixture, full-scale peak after the clipping rule.
    static let clippingPeak = 0.99
    /// Redraws of the level under `--clipping reject` before falling back to rescaling.
    static let maximumRejectAttempts = 20
    /// Active-level and LUFS scales are refined until the scaled mixture is this close to the
    /// requested level, dB, or for at most `levelRefinements` re-measurements.
    static let levelToleranceDB = 0.005
    static let levelRefinements = 4

    /// - Parameter stages: the processing stages (default: the pipeline for the planner's options;
    ///   every stage for a planner from a manifest, whose clips may name any degradation).
    public init(planner: MixPlanner, cacheBytes: Int = 1 << 30, stages: [any MixStage]? = nil) {
        self.planner = planner
        self.sources = SourceCache(sampleRate: planner.options.sampleRate, capacityBytes: cacheBytes)
        let stages = stages ?? (planner.manifest == nil ? MixPipeline.stages(for: planner.options) : MixPipeline.allStages)
        self.stages = stages
        // `--sample-rate native`: the clips below the highest rate render with a renderer at their
        // own rate, sharing this one's sources (each file decoded once per rate).
        var others: [Int: MixRenderer] = [:]
        if planner.options.isNativeRate {
            let rates = Set(planner.speech.map(\.sampleRate)).subtracting([planner.options.sampleRate])
            for rate in rates {
                others[rate] = MixRenderer(planner: planner.atRate(rate), sources: sources.atRate(rate), stages: stages)
            }
        }
        self.otherRates = others
    }

    private init(planner: MixPlanner, sources: SourceCache, stages: [any MixStage]) {
        self.planner = planner
        self.sources = sources
        self.stages = stages
        self.otherRates = [:]
    }

    /// Renderers of the other clip rates of a native-rate mix, by rate (empty otherwise).
    private let otherRates: [Int: MixRenderer]

    /// The noise of a clip scaled for its SNR: the summed (or single) noise signal and its gain,
    /// and each source's gain in plan order (`written noise = noise · gain`).
    struct ScaledNoise {
        var noise: [Float]
        var gain: Double
        var gains: [Double]
    }

    /// Renders clip `index`.
    ///
    /// Signals stay in Float (as decoded) and gains in Double: speech and noise are measured
    /// once each, the noise is scaled by a gain rather than rewritten, the mixture's peak and
    /// power come from one fused pass, and each stem is quantised once, with its gain, straight
    /// from its source signal. For PCM16 the realised SNR and level come from the exact integer
    /// energies of the codes written.
    /// - Throws: `AudioError` for an unreadable source, ``MixError/clipFailed(index:reason:)`` when
    ///   the clip has no measurable speech or noise.
    public func render(index: Int) throws -> RenderedClip {
        var plan = planner.plan(index: index)
        if let rate = plan.sampleRate, let other = otherRates[rate] { return try other.render(index: index) }
        var signals = try self.signals(for: plan)
        var noise = try scaledNoise(signals, plan: plan)
        let (levelScale, clippingScale, attempts) = try levelAndClipping(signals.mixtureSpeech, noise: noise, plan: &plan)
        let scale = levelScale * clippingScale
        if planner.options.snrMode == .active {
            // P.56 thresholds are absolute levels, so the active level does not scale exactly with
            // the signal: measure it again at the final scale and correct the noise to the target.
            let activeScaled = try speechPowerForSNR(signals.mixtureSpeech.map { $0 * Float(scale) }, plan: plan)
            let noiseScaled = Levels.meanSquareChunked(noise.noise) * noise.gain * noise.gain * scale * scale
            let correction = (activeScaled / (noiseScaled * pow(10, plan.snrDB / 10))).squareRoot()
            noise.gain *= correction
            noise.gains = noise.gains.map { $0 * correction }
        }
        var clip = RenderedClip(
            plan: plan, stems: .float32(noisy: [], clean: [], noise: []), snrDBRealised: 0, levelDBFSRealised: 0,
            speechGain: scale, noiseGains: noise.gains.map { $0 * scale },
            clippingScale: clippingScale, clippedSamples: 0, attempts: attempts)
        clip.rirOnsetSamples = signals.rirOnsetSamples
        try writeStems(&signals, noise: &noise, scale: scale, into: &clip)
        try degrade(&clip)
        return clip
    }

    /// The clip's signals before any gain: speech placed, noise segments (looped with a
    /// crossfade, each from its own offset), then every stage of the pipeline.
    func signals(for plan: ClipPlan) throws -> ClipSignals {
        let options = planner.options
        let dry = try placedSpeech(plan)
        var noises: [[Float]] = []
        for piece in plan.noises {
            let samples = try sources.samples(of: planner.noise[piece.source])
            noises.append(MixSignals.loopedSegment(samples, offset: piece.offset, length: plan.length,
                crossfade: Int((options.crossfadeSeconds * Double(options.sampleRate)).rounded())))
        }
        if let wind = plan.wind {
            let parameters = WindNoise.parameters(seed: wind.seed)
            let samples = WindNoise.generate(count: plan.length, sampleRate: options.sampleRate, parameters: parameters)
            noises = [samples.map { Float($0) }]
        }
        var signals = ClipSignals(mixtureSpeech: dry, clean: dry, noises: noises, cleanIsSeparate: false)
        let context = MixStageContext(planner: planner, sources: sources)
        for stage in stages where stage.point != .noisy { try stage.apply(to: &signals, plan: plan, context: context) }
        return signals
    }

    /// SNR: each noise scaled to its share, then the sum scaled so the total hits the clip's SNR
    /// exactly (a single noise takes its gain from the SNR directly).
    func scaledNoise(_ signals: ClipSignals, plan: ClipPlan) throws -> ScaledNoise {
        let speechPower = try speechPowerForSNR(signals.mixtureSpeech, plan: plan)
        if plan.wind != nil {
            let power = Levels.meanSquareChunked(signals.noises[0])
            guard power > 0 else { throw MixError.clipFailed(index: plan.index, reason: "the wind noise is silent") }
            let gain = (speechPower / (power * pow(10, plan.snrDB / 10))).squareRoot()
            return ScaledNoise(noise: signals.noises[0], gain: gain, gains: [])
        }
        var gains: [Double] = [], powers: [Double] = []
        for (stem, piece) in zip(signals.noises, plan.noises) {
            let power = Levels.meanSquareChunked(stem)
            guard power > 0 else { throw MixError.clipFailed(index: plan.index,
                                                             reason: "noise segment of \(planner.noise[piece.source].path) is silent") }
            powers.append(power)
            gains.append((speechPower / (power * pow(10, piece.snrDB / 10))).squareRoot())
        }
        if signals.noises.count == 1 {
            let gain = (speechPower / (powers[0] * pow(10, plan.snrDB / 10))).squareRoot()
            return ScaledNoise(noise: signals.noises[0], gain: gain, gains: [gain])
        }
        let noise = MixSignals.weightedSum(signals.noises, gains: gains)
        let summedPower = Levels.meanSquareChunked(noise)
        guard summedPower > 0 else { throw MixError.clipFailed(index: plan.index, reason: "noises cancel to silence") }
        let gain = (speechPower / (summedPower * pow(10, plan.snrDB / 10))).squareRoot()
        return ScaledNoise(noise: noise, gain: gain, gains: gains.map { $0 * gain })
    }

    /// The level scale for the plan's level and the clipping rule's scale, with the level draws
    /// made (`--clipping reject` redraws the level, updating `plan`). The mixture's peak and power
    /// come from one pass; RMS scales exactly with the signal, while the P.56 active level and
    /// gated loudness do not (their thresholds are absolute), so for them the scale is refined on
    /// the scaled mixture.
    func levelAndClipping(_ speech: [Float], noise: ScaledNoise, plan: inout ClipPlan) throws -> (level: Double, clipping: Double,
                                                                                                  attempts: Int) {
        let options = planner.options
        let length = plan.length
        let (mixturePeak, mixtureEnergy) = MixSignals.peakAndEnergy(ofSum: speech, noise.noise, scaledBy: Float(noise.gain))
        let scaleForLevel: (Double) throws -> Double
        if options.levelMode == .rms {
            let measuredLevel = 10 * log10(mixtureEnergy / Double(length))
            scaleForLevel = { pow(10, ($0 - measuredLevel) / 20) }
        } else {
            let k = Float(noise.gain)
            let mixture = (0..<length).map { speech[$0] + k * noise.noise[$0] }
            let measuredLevel = try levelDBFS(mixture, mode: options.levelMode)
            scaleForLevel = { target in
                var scale = pow(10, (target - measuredLevel) / 20)
                for _ in 0..<Self.levelRefinements {
                    let error = target - (try self.levelDBFS(MixSignals.scaled(mixture, by: Float(scale)), mode: options.levelMode))
                    if !error.isFinite || abs(error) < Self.levelToleranceDB { break }
                    scale *= pow(10, error / 20)
                }
                return scale
            }
        }
        var attempts = 1
        while true {
            let levelScale = try scaleForLevel(plan.levelDBFS)
            let peak = mixturePeak * levelScale
            if peak <= Self.clippingPeak || options.clipping == .allow { return (levelScale, 1, attempts) }
            // A manifest's level is an input: never redrawn (the one recorded is the draw the mix kept).
            if options.clipping == .reject && planner.manifest == nil && attempts < Self.maximumRejectAttempts {
                plan.levelDBFS = planner.plan(index: plan.index, attempt: attempts).levelDBFS
                attempts += 1
                continue
            }
            return (levelScale, Self.clippingPeak / peak, attempts)
        }
    }

    /// The stems as written, each quantised once from its signal with its gain, and the SNR and
    /// level realised in them. Each signal is released (emptied in `signals` and `noise`) as soon
    /// as its stem is made, so a long clip holds its signals and its stems for only one stem at a time.
    func writeStems(_ signals: inout ClipSignals, noise: inout ScaledNoise, scale: Double, into clip: inout RenderedClip) throws {
        let options = planner.options, plan = clip.plan, length = plan.length
        let speechScale = Float(scale), noiseScale = Float(scale * noise.gain)
        let realisedSpeechPower: Double, realisedNoisePower: Double, realisedNoisy: [Float]?
        /// Empties the signals whose stems are made (the last reference to a long signal frees it).
        func release(speech: Bool = false, clean: Bool = false, noises: Bool = false) {
            if speech { signals.mixtureSpeech = [] }
            if clean { signals.clean = [] }
            if noises { noise.noise = []; signals.noises = [] }
        }
        if options.format == .pcm16 {
            let speechCodes = PCM16.encode(signals.mixtureSpeech, scale: speechScale)
            release(speech: true, clean: !signals.cleanIsSeparate)
            let cleanCodes = signals.cleanIsSeparate ? PCM16.encode(signals.clean, scale: speechScale) : speechCodes
            release(clean: true)
            let noiseCodes = PCM16.encode(noise.noise, scale: noiseScale)
            release(noises: true)
            var mix = VectorKernels.PCM16Mix(saturated: 0, speechEnergy: 0, noiseEnergy: 0, noisyEnergy: 0)
            let noisyCodes = [Int16](unsafeUninitializedCapacity: length) { out, count in
                speechCodes.withUnsafeBufferPointer { s in
                    noiseCodes.withUnsafeBufferPointer { n in mix = VectorKernels.mixPCM16(speech: s, noise: n, into: out) }
                }
                count = length
            }
            clip.stems = .pcm16(noisy: noisyCodes, clean: cleanCodes, noise: noiseCodes)
            clip.clippedSamples = mix.saturated
            let fullScale = Double(length) * 32768 * 32768
            realisedSpeechPower = options.snrMode == .global
                ? Double(mix.speechEnergy) / fullScale : try speechPowerForSNR(PCM16.decode(speechCodes), plan: plan)
            realisedNoisePower = Double(mix.noiseEnergy) / fullScale
            realisedNoisy = options.levelMode == .rms ? nil : PCM16.decode(noisyCodes)
            clip.levelDBFSRealised = 10 * log10(Double(mix.noisyEnergy) / fullScale)
        } else {
            let speechOut = MixSignals.scaled(signals.mixtureSpeech, by: speechScale)
            release(speech: true, clean: !signals.cleanIsSeparate)
            let cleanOut = signals.cleanIsSeparate ? MixSignals.scaled(signals.clean, by: speechScale) : speechOut
            release(clean: true)
            let noiseOut = MixSignals.scaled(noise.noise, by: noiseScale)
            release(noises: true)
            let (noisyOut, fullScale) = MixSignals.sumCountingFullScale(speechOut, noiseOut)
            clip.stems = .float32(noisy: noisyOut, clean: cleanOut, noise: noiseOut)
            clip.clippedSamples = fullScale
            // Realised figures accumulate in Double from the first sample (the chunked Float sums
            // used for the gains are good to about 1e-6 relative, not enough for a recorded value).
            realisedSpeechPower = options.snrMode == .global ? Levels.meanSquare(speechOut) : try speechPowerForSNR(speechOut, plan: plan)
            realisedNoisePower = Levels.meanSquare(noiseOut)
            realisedNoisy = noisyOut
        }
        // Signals scaled below what the output format can hold (16-bit codes all zero) have no
        // SNR or level to record: a clear per-clip failure, not a NaN or inf in the manifest.
        let resolution = options.format == .pcm16 ? "16-bit codes are all zero; float32 output or" : "use"
        guard realisedNoisePower > 0 else {
            throw MixError.clipFailed(
                index: plan.index,
                reason: "the noise vanishes at SNR \(String(format: "%.1f", plan.snrDB)) dB "
                    + "and level \(String(format: "%.1f", plan.levelDBFS)) dBFS "
                    + "(\(resolution) a lower SNR or a higher level would keep it)")
        }
        guard realisedSpeechPower > 0 else {
            throw MixError.clipFailed(index: plan.index,
                                      reason: "the speech vanishes at level \(String(format: "%.1f", plan.levelDBFS)) dBFS "
                                          + "(\(resolution) a higher level would keep it)")
        }
        clip.snrDBRealised = 10 * log10(realisedSpeechPower / realisedNoisePower)
        if let realisedNoisy {
            clip.levelDBFSRealised = options.levelMode == .rms
                ? Levels.rmsDBFS(realisedNoisy) : try levelDBFS(realisedNoisy, mode: options.levelMode)
        }
    }

    /// The clip's speech pieces placed at their positions (zeros elsewhere); the source itself
    /// (shared, not copied) when one piece is the whole clip (a full utterance).
    private func placedSpeech(_ plan: ClipPlan) throws -> [Float] {
        if plan.speech.count == 1, let piece = plan.speech.first, piece.offset == 0, piece.position == 0 {
            let samples = try sources.samples(of: planner.speech[piece.source])
            if samples.count == plan.length && piece.length >= plan.length { return samples }
        }
        var dry = [Float](repeating: 0, count: plan.length)
        try dry.withUnsafeMutableBufferPointer { out in
            for piece in plan.speech {
                let samples = try sources.samples(of: planner.speech[piece.source])
                let take = min(piece.length, samples.count - piece.offset, plan.length - piece.position)
                if take <= 0 { continue }
                samples.withUnsafeBufferPointer { out.baseAddress!.advanced(by: piece.position).update(from: $0.baseAddress! + piece.offset,
                                                                                                       count: take) }
            }
        }
        return dry
    }

    /// Speech power for the SNR: mean square over the clip (`global`) or the P.56 active level (`active`).
    private func speechPowerForSNR(_ speech: [Float], plan: ClipPlan) throws -> Double {
        let power: Double
        switch planner.options.snrMode {
        case .global: power = Levels.meanSquareChunked(speech)
        case .active: power = try MixSignals.activePower(speech, sampleRate: planner.options.sampleRate)
        }
        guard power > 0 && power.isFinite else {
            throw MixError.clipFailed(index: plan.index,
                                      reason: "speech is silent in this clip (\(planner.speech[plan.speech[0].source].path))")
        }
        return power
    }

    func levelDBFS(_ x: [Float], mode: MixOptions.LevelMode) throws -> Double {
        switch mode {
        case .rms: return 10 * log10(Levels.meanSquareChunked(x))
        case .active: return 10 * log10(try MixSignals.activePower(x, sampleRate: planner.options.sampleRate))
        case .lufs: return try MixSignals.loudnessLUFS(x, sampleRate: planner.options.sampleRate)
        }
    }
}
