import Foundation

/// Clipping distortion of the noisy input (`--clip-distortion`, `--clip-distortion-probability`):
/// hard clipping at a drawn fraction of the noisy input's peak, without rescaling (a distortion to
/// remove, unlike `--clipping`, the rule that keeps the mixture from clipping). The fraction of
/// samples clipped is recorded (`clipped_fraction`). Under `--clip-quantiles` the input is clipped
/// between its drawn lower and upper quantiles instead (the URGENT challenge's clipping). Draws from its own stream (``MixStageRandom``).
public struct ClipDistortionStage: DegradationStage {
    public static let stage = Degradation.Stage.clipDistortion
    public init() {}

    public static func draw(options: MixOptions, length: Int, using generator: inout SplitMix64) -> Degradation {
        var degradation = Degradation(stage: stage)
        if let quantiles = options.clipQuantiles {
            degradation.clipQuantileLow = quantiles.low.draw(using: &generator)
            degradation.clipQuantileHigh = quantiles.high.draw(using: &generator)
        } else {
            degradation.clipDistortion = options.clipDistortion!.draw(using: &generator)
        }
        return degradation
    }

    public func apply(_ degradation: Degradation, to signals: inout ClipSignals, context: MixStageContext) throws -> Degradation {
        let lower: Float, upper: Float
        if let low = degradation.clipQuantileLow, let high = degradation.clipQuantileHigh {
            let sorted = signals.noisy.sorted()
            (lower, upper) = (Self.quantile(sorted, low), Self.quantile(sorted, high))
        } else {
            upper = Float(degradation.clipDistortion! * Levels.peak(signals.noisy))
            lower = -upper
        }
        var clipped = 0
        signals.noisy.withUnsafeMutableBufferPointer { x in
            for i in x.indices where x[i] > upper || x[i] < lower {
                x[i] = x[i] > upper ? upper : lower
                clipped += 1
            }
        }
        var realised = degradation
        realised.clippedFraction = signals.noisy.isEmpty ? 0 : Double(clipped) / Double(signals.noisy.count)
        return realised
    }

    /// The `q` quantile of ascending `sorted` values, interpolated linearly between the two
    /// nearest ranks (position q·(n − 1), NumPy's default).
    static func quantile(_ sorted: [Float], _ q: Double) -> Float {
        guard !sorted.isEmpty else { return 0 }
        let position = q * Double(sorted.count - 1)
        let below = Int(position.rounded(.down)), above = min(sorted.count - 1, below + 1)
        let fraction = position - Double(below)
        return Float(Double(sorted[below]) + fraction * (Double(sorted[above]) - Double(sorted[below])))
    }
}
