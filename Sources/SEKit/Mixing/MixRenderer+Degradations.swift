import Foundation

extension MixRenderer {
    /// Applies the plan's degradations (the ``MixStagePoint/noisy`` stages, in order) to the written
    /// noisy stem, as its values (16-bit codes decoded), and writes it again; the clean stem too
    /// when a stage changes it (`--target-bandwidth limited`). The noise stem stays the additive
    /// noise as mixed, the realised SNR that of speech against noise before degradation; the
    /// level and the full-scale count are measured again on the degraded noisy stem (a stem the
    /// degradation left silent, or with no measurable level, is still written: its level is
    /// `-infinity`, `null` in the manifest and the catalogue).
    /// - Throws: `AudioError` from a codec or the resampler.
    func degrade(_ clip: inout RenderedClip) throws {
        guard let planned = clip.plan.degradations else { return }
        clip.degradations = []
        guard !planned.isEmpty else { return }
        let options = planner.options
        var signals = ClipSignals(mixtureSpeech: [], clean: [], noises: [], cleanIsSeparate: true, noisy: clip.noisy)
        let limitsClean = planned.contains { $0.targetBandwidth == .limited }
        if limitsClean { signals.clean = clip.clean }
        let context = MixStageContext(planner: planner, sources: sources)
        for stage in stages where stage.point == .noisy { try stage.apply(to: &signals, plan: clip.plan, context: context) }
        clip.degradations = signals.degradations
        let noisy = signals.noisy
        switch clip.stems {
        case let .pcm16(_, clean, noise):
            var saturated = 0
            let codes = [Int16](unsafeUninitializedCapacity: noisy.count) { out, count in
                saturated = noisy.withUnsafeBufferPointer { PCM16.encode($0, into: out.baseAddress!) }
                count = noisy.count
            }
            clip.stems = .pcm16(noisy: codes, clean: limitsClean ? PCM16.encode(signals.clean, scale: 1) : clean, noise: noise)
            clip.clippedSamples = saturated
            clip.levelDBFSRealised = degradedLevelDBFS(PCM16.decode(codes), mode: options.levelMode)
        case let .float32(_, clean, noise):
            clip.stems = .float32(noisy: noisy, clean: limitsClean ? signals.clean : clean, noise: noise)
            clip.clippedSamples = noisy.withUnsafeBufferPointer { Levels.count(atOrAbove: 1, in: $0) }
            clip.levelDBFSRealised = degradedLevelDBFS(noisy, mode: options.levelMode)
        }
        if options.silencedClips == .fail && !clip.levelDBFSRealised.isFinite {
            throw MixError.clipFailed(
                index: clip.plan.index,
                reason: "the degradations (\((clip.degradations ?? []).map(\.kind).joined(separator: ", "))) leave the noisy input " +
                    "silent or without a measurable level (--silenced-clips fail)")
        }
    }

    /// The level of a degraded noisy stem, or `-infinity` when it has none: silent (`--packet-loss 1`,
    /// a clipping threshold below the 16-bit step), or no active part for `--level-mode active` or
    /// `lufs`. A valid degradation never makes a clip fail.
    private func degradedLevelDBFS(_ noisy: [Float], mode: MixOptions.LevelMode) -> Double {
        guard noisy.contains(where: { $0 != 0 }), let level = try? levelDBFS(noisy, mode: mode), level.isFinite else {
            return -.infinity
        }
        return level
    }
}
