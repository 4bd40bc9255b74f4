import Foundation

/// Clipping distortion of the noisy input (`--clip-distortion`, `--clip-distortion-probability`):
/// hard clipping at a drawn fraction of the noisy input's peak, without rescaling (a distortion to
/// remove, unlike `--clipping`, the rule that keeps the mixture from clipping). The fraction of
/// samples clipped is recorded (`clipped_fraction`). Draws from its own stream (``MixStageRandom``).
public struct ClipDistortionStage: DegradationStage {
    public static let stage = Degradation.Stage.clipDistortion
    public init() {}

    public static func draw(options: MixOptions, length: Int, using generator: inout SplitMix64) -> Degradation {
        var degradation = Degradation(stage: stage)
        degradation.clipDistortion = options.clipDistortion!.draw(using: &generator)
        return degradation
    }

    public func apply(_ degradation: Degradation, to signals: inout ClipSignals, context: MixStageContext) throws -> Degradation {
        let threshold = Float(degradation.clipDistortion! * Levels.peak(signals.noisy))
        var clipped = 0
        signals.noisy.withUnsafeMutableBufferPointer { x in
            for i in x.indices where abs(x[i]) > threshold {
                x[i] = x[i] > 0 ? threshold : -threshold
                clipped += 1
            }
        }
        var realised = degradation
        realised.clippedFraction = signals.noisy.isEmpty ? 0 : Double(clipped) / Double(signals.noisy.count)
        return realised
    }
}
