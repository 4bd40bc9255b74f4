import Foundation

/// Where a stage acts while a clip is rendered.
public enum MixStagePoint: Sendable {
    /// On the placed dry speech, before any noise is added: it sets the speech that goes into the
    /// mixture and the clean target (reverberation).
    case speech
    /// On every signal of the clip (mixture speech, clean target, each noise) before any level is
    /// measured (band limitation).
    case signals
    /// On the noisy mixture as written, after the level and the clipping rule (degradations:
    /// ``DegradationStage``); the clean target only where the stage says so.
    case noisy
}

/// The signals of a clip while it is rendered: Float samples at the corpus rate, all of the
/// clip's length.
public struct ClipSignals: Sendable {
    /// The speech as it goes into the mixture (reverberant when the clip is reverberated).
    public var mixtureSpeech: [Float]
    /// The clean target stem (dry, early or reverberant speech).
    public var clean: [Float]
    /// Each noise source's segment, in plan order, before any gain.
    public var noises: [[Float]]
    /// Whether `clean` is a different signal from `mixtureSpeech` (so stages process it separately).
    public var cleanIsSeparate: Bool
    /// The noisy mixture at its final level (for ``MixStagePoint/noisy`` stages; empty before).
    public var noisy: [Float] = []
    /// The degradations applied so far, with their realised figures, in order.
    public var degradations: [Degradation] = []
    /// The RIR's first arrival, samples at the corpus rate, when the clip is reverberated and
    /// aligned on it (manifest `rir_onset_samples`).
    public var rirOnsetSamples: Int? = nil
}

/// What a stage may use besides the signals: the sources and the options.
public struct MixStageContext: Sendable {
    public let planner: MixPlanner
    let sources: SourceCache
    public var options: MixOptions { planner.options }
    public var sampleRate: Int { planner.options.sampleRate }
}

/// One processing stage of the mixer (reverberation, low-pass, and the degradations: band limit,
/// codecs, packet loss, clipping distortion), applied to a clip as its plan says.
///
/// To add a stage: a type conforming to this protocol in `Sources/SEKit/Mixing/Stages/`, its
/// options in ``MixOptions`` (validated there, named like its flags), its draws in the planner
/// taken from ``MixStageRandom/generator(seed:clipIndex:stage:)`` (never from the clip's main
/// generator: that would shift every later draw and change the corpora existing seeds make), its
/// parameters in ``ClipPlan`` and the manifest, and an entry in ``MixPipeline/stages(for:)``.
public protocol MixStage: Sendable {
    /// Stable name: seeds the stage's own random stream and names it in errors.
    var name: String { get }
    var point: MixStagePoint { get }
    /// Applies the stage to `signals` as `plan` says (does nothing when the plan leaves it out).
    /// - Throws: `AudioError` for an unreadable source, ``MixError`` for a clip that cannot be made.
    func apply(to signals: inout ClipSignals, plan: ClipPlan, context: MixStageContext) throws
}

/// The stages of a mix, in the order they run.
public enum MixPipeline {
    /// The stages for `options`: reverberation (speech point), the low-pass augmentation (all
    /// signals), then the enabled degradations of the noisy input (band limit, codec, packet loss,
    /// clipping distortion, in that order). The first two take their draws from the clip's main
    /// generator, as they always have (their corpora stay byte-identical); the degradations draw
    /// from their own streams (``DegradationDraws``).
    public static func stages(for options: MixOptions) -> [any MixStage] {
        let enabled = options.enabledDegradationStages
        return [ReverberationStage(), LowpassStage()]
            + DegradationDraws.stages.filter { enabled.contains(type(of: $0).stage) } as [any MixStage]
    }

    /// Every stage, in order: for clips re-rendered from a manifest, each applied as its plan says.
    public static var allStages: [any MixStage] { [ReverberationStage(), LowpassStage()] + DegradationDraws.stages as [any MixStage] }
}

/// Random streams of mixer stages: one generator per (run seed, clip index, stage name), so a
/// stage's draws never depend on whether other stages exist or how many draws they take.
public enum MixStageRandom {
    /// The generator of stage `stage` for clip `clipIndex` of a run seeded with `seed`.
    public static func generator(seed: UInt64, clipIndex: Int, stage: String) -> SplitMix64 {
        SplitMix64(seed: SplitMix64.childSeed(seed, index: UInt64(clipIndex), stream: streamID(stage)))
    }

    /// The stream id of a stage name: 64-bit FNV-1a of its UTF-8 bytes with the top bit set
    /// (stream ids below 2⁶³ are the planner's own: clips, splits).
    static func streamID(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash | (1 << 63)
    }
}
