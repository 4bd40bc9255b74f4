import Foundation

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
            // A native clip below the highest rate: band limits only below its own rate.
            let native = kind == .bandwidth && options.isNativeRate
            if native && options.bandwidthRates != nil && options.bandwidthRateChoices.isEmpty { continue }
            let degradation = type(of: stage).draw(options: options, length: length, using: &generator)
            if native,
               degradation.bandwidthRateHz ?? 2 * (degradation.bandwidthHz ?? 0) >= options.sampleRate { continue }
            result.append(degradation)
        }
        return result
    }
}
