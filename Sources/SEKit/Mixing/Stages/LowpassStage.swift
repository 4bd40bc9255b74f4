import Foundation

/// Band-limiting augmentation: every signal of the clip low-passed at the plan's cut-off
/// (`--lowpass-hz`, `--lowpass-probability`) before any level is measured. Drawn by the
/// planner from the clip's main generator (plan field `lowpassHz`).
public struct LowpassStage: MixStage {
    public let name = "lowpass"
    public let point = MixStagePoint.signals

    public func apply(to signals: inout ClipSignals, plan: ClipPlan, context: MixStageContext) throws {
        guard let cutoff = plan.lowpassHz else { return }
        let rate = context.sampleRate
        signals.mixtureSpeech = MixSignals.lowpass(signals.mixtureSpeech, cutoffHz: cutoff, sampleRate: rate)
        signals.clean = signals.cleanIsSeparate
            ? MixSignals.lowpass(signals.clean, cutoffHz: cutoff, sampleRate: rate) : signals.mixtureSpeech
        signals.noises = signals.noises.map { MixSignals.lowpass($0, cutoffHz: cutoff, sampleRate: rate) }
    }
}
