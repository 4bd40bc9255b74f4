import Foundation

/// Room reverberation: the clip's dry speech convolved with its RIR (`--rir`,
/// `--rir-probability`); the clean target is dry, early (the RIR up to its direct path plus
/// `--early-ms`, 50 ms by default) or reverberant speech (`--target`). Outputs are aligned on the
/// RIR's direct path, its first arrival (``RIRAlignment/onset``; the largest sample in mixes
/// made before, ``RIRAlignment/peak``), so dry, early and reverberant speech line up in time.
/// Drawn by the planner from the clip's main generator (plan field `rir`).
public struct ReverberationStage: MixStage {
    public let name = "reverberation"
    public let point = MixStagePoint.speech
    /// Early reverberation window after the direct path, seconds (`--target early` without `--early-ms`).
    static let earlyReflectionSeconds = 0.05

    public func apply(to signals: inout ClipSignals, plan: ClipPlan, context: MixStageContext) throws {
        guard let rirIndex = plan.rir else { return }
        let dry = signals.mixtureSpeech, length = plan.length
        let rir = try context.sources.samples(of: context.planner.rirs[rirIndex])
        let alignment = context.options.rirAlignment ?? .peak
        let direct = alignment.directPathIndex(rir)
        if alignment == .onset { signals.rirOnsetSamples = direct }
        signals.mixtureSpeech = MixSignals.convolveAligned(dry, rir, start: direct, length: length)
        switch context.options.target {
        case .dry:
            signals.clean = dry
        case .reverberant:
            signals.clean = signals.mixtureSpeech
        case .early:
            let window = context.options.earlyMs.map { $0 / 1000 } ?? Self.earlyReflectionSeconds
            let end = min(rir.count, direct + Int((window * Double(context.sampleRate)).rounded()) + 1)
            signals.clean = MixSignals.convolveAligned(dry, Array(rir[0..<end]), start: direct, length: length)
        }
        signals.cleanIsSeparate = context.options.target != .reverberant
    }
}
