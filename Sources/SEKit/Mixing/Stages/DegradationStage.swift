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
