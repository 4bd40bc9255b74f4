import Foundation

/// Band limitation of the noisy input (`--bandwidth-hz`, `--bandwidth-probability`): resampled with
/// SEKit's soxr resampler down to twice the band edge and back up, so the band edge is the one a
/// real recording at that rate has (soxr's high-quality filter: pass band to 0.913 of the edge,
/// stop band from the edge on). Under `--bandwidth-rates` the rate is drawn among those listed
/// below the corpus rate, with a soxr quality drawn among medium, high and very-high. With
/// `--target-bandwidth limited` the clean target is limited the same way; by default it keeps its
/// full band (a bandwidth-extension task). Draws from its own stream (``MixStageRandom``).
public struct BandwidthStage: DegradationStage {
    public static let stage = Degradation.Stage.bandwidth
    public init() {}

    public static func draw(options: MixOptions, length: Int, using generator: inout SplitMix64) -> Degradation {
        var degradation = Degradation(stage: stage)
        if let bandwidthHz = options.bandwidthHz {
            degradation.bandwidthHz = Int(bandwidthHz.draw(using: &generator).rounded())
        } else {
            // `--bandwidth-rates`: a rate below the corpus rate, then a resampler quality, uniformly.
            let rates = options.bandwidthRateChoices, qualities = MixOptions.bandwidthResamplerQualities
            degradation.bandwidthRateHz = rates[generator.nextIndex(below: rates.count)]
            degradation.resamplerQuality = qualities[generator.nextIndex(below: qualities.count)]
        }
        degradation.targetBandwidth = options.targetBandwidth ?? .full
        return degradation
    }

    public func apply(_ degradation: Degradation, to signals: inout ClipSignals, context: MixStageContext) throws -> Degradation {
        let rate = context.sampleRate, band = degradation.bandwidthRateHz ?? 2 * degradation.bandwidthHz!
        let quality = degradation.resamplerQuality ?? .high
        signals.noisy = try Resampler.through(signals.noisy, sampleRate: rate, intermediateRate: band, quality: quality)
        if degradation.targetBandwidth == .limited {
            signals.clean = try Resampler.through(signals.clean, sampleRate: rate, intermediateRate: band, quality: quality)
        }
        return degradation
    }
}
