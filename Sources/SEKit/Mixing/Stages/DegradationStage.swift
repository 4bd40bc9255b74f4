import Foundation

/// A mixer stage that degrades the noisy input after mixing (``MixStagePoint/noisy``): band
/// limitation, codecs, packet loss, clipping distortion. Its parameters are drawn per clip by
/// ``DegradationDraws`` from the stage's own random stream and recorded as a ``Degradation``.
public protocol DegradationStage: MixStage {
    /// Which stage this is (names its random stream, its manifest entries and its flags).
    static var stage: Degradation.Stage { get }
    /// Draws the stage's parameters for a clip of `length` samples from `generator` (the stage's
    /// own stream; the options enable the stage).
    static func draw(options: MixOptions, length: Int, using generator: inout SplitMix64) -> Degradation
    /// Applies `degradation` to `signals.noisy` (and `signals.clean` where the stage says so);
    /// returns it with its realised figures filled in.
    func apply(_ degradation: Degradation, to signals: inout ClipSignals, context: MixStageContext) throws -> Degradation
}

extension DegradationStage {
    public var name: String { Self.stage.rawValue }
    public var point: MixStagePoint { .noisy }

    /// Applies the plan's degradation of this stage, if any, and records it in `signals.degradations`.
    public func apply(to signals: inout ClipSignals, plan: ClipPlan, context: MixStageContext) throws {
        guard let planned = plan.degradations?.first(where: { $0.stage == Self.stage }) else { return }
        signals.degradations.append(try apply(planned, to: &signals, context: context))
    }
}

/// Which degradations a clip gets and their parameters.
///
/// Without `--degradations-per-clip`, each enabled stage applies with its own probability (one
/// uniform draw, the first of the stage's stream). With it, a count k is drawn from the
/// `degradations-per-clip` stream and k of the enabled stages are chosen uniformly from that same
/// stream. Either way a chosen stage then draws its parameters from its own stream
/// (``MixStageRandom/generator(seed:clipIndex:stage:)``), so adding a stage, or changing another
/// stage's settings, never changes what a stage draws.
public enum DegradationDraws {
    /// Every degradation stage, in application order.
    public static let stages: [any DegradationStage] = [BandwidthStage(), CodecStage(), PacketLossStage(), ClipDistortionStage()]
    /// The stream the per-clip count and choice draw from.
    static let selectionStream = "degradations-per-clip"

    /// The degradations of clip `clipIndex` (of `length` samples), in application order; nil when
    /// the options enable no degradation stage (the clip's plan and manifest record then have no
    /// `degradations` field at all, as before degradations existed).
    public static func draw(options: MixOptions, clipIndex: Int, length: Int) -> [Degradation]? {
        let enabled = options.enabledDegradationStages
        guard !enabled.isEmpty else { return nil }
        var chosen = Set<Degradation.Stage>()
        if let counts = options.degradationsPerClip {
            var selection = MixStageRandom.generator(seed: options.seed, clipIndex: clipIndex, stage: selectionStream)
            var pool = enabled
            for _ in 0..<min(counts.draw(using: &selection), pool.count) {
                chosen.insert(pool.remove(at: selection.nextIndex(below: pool.count)))
            }
        }
        var result: [Degradation] = []
        for stage in stages where enabled.contains(type(of: stage).stage) {
            let kind = type(of: stage).stage
            var generator = MixStageRandom.generator(seed: options.seed, clipIndex: clipIndex, stage: kind.rawValue)
            if options.degradationsPerClip == nil {
                guard generator.nextUnitInterval() < options.degradationProbability(kind) else { continue }
            } else if !chosen.contains(kind) {
                continue
            }
            result.append(type(of: stage).draw(options: options, length: length, using: &generator))
        }
        return result
    }
}
