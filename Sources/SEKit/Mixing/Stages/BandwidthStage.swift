import Foundation

/// Band limitation of the noisy input (`--bandwidth-hz`, `--bandwidth-probability`): resampled with
/// SEKit's soxr resampler down to twice the band edge and back up, so the band edge is the one a
/// real recording at that rate has (soxr's high-quality filter: pass band to 0.913 of the edge,
/// stop band from the edge on). With `--target-bandwidth limited` the clean target is limited the
/// same way; by default it keeps its full band (a bandwidth-extension task). Draws from its own
/// stream (``MixStageRandom``).
public struct BandwidthStage: DegradationStage {
    public static let stage = Degradation.Stage.bandwidth
    public init() {}

    public static func draw(options: MixOptions, length: Int, using generator: inout SplitMix64) -> Degradation {
        var degradation = Degradation(stage: stage)
        degradation.bandwidthHz = Int(options.bandwidthHz!.draw(using: &generator).rounded())
        degradation.targetBandwidth = options.targetBandwidth ?? .full
        return degradation
    }

    public func apply(_ degradation: Degradation, to signals: inout ClipSignals, context: MixStageContext) throws -> Degradation {
        let rate = context.sampleRate, band = 2 * degradation.bandwidthHz!
        signals.noisy = try Resampler.through(signals.noisy, sampleRate: rate, intermediateRate: band)
        if degradation.targetBandwidth == .limited {
            signals.clean = try Resampler.through(signals.clean, sampleRate: rate, intermediateRate: band)
        }
        return degradation
    }
}
