import Foundation

/// One manifest record checked and turned into the plan that renders it (`sekit mix --from-manifest`):
/// what an edited manifest may say and what it may not.
enum ManifestClipCheck {
    /// Why a record cannot be rendered.
    struct Problem: Error { var reason: String }

    /// What is wrong with `record` before its sources are read (nil: nothing): fields the mix's
    /// settings fix (rate, SNR and level modes, target), ranges, and each degradation's parameters.
    static func problem(_ record: MixManifestRecord, options: MixOptions) -> String? {
        let id = record.clipID
        if id.isEmpty || id.hasPrefix(".") || id.contains("/") || id.contains("\0") {
            return "clip_id '\(id)' cannot name a file (empty, hidden or with a '/')"
        }
        if options.isNativeRate {
            // Each clip at its own rate, no higher than the mix's highest (the rate of its first speech piece, checked with the sources).
            guard (8000...options.sampleRate).contains(record.sampleRate) else {
                return "sample_rate \(record.sampleRate) is outside the native mix's rates 8000..\(options.sampleRate) Hz (mix.json)"
            }
        } else if record.sampleRate != options.sampleRate {
            return "sample_rate \(record.sampleRate) differs from the mix's \(options.sampleRate) Hz (mix.json); "
                + "offsets and lengths are at that rate"
        }
        if record.snrMode != options.snrMode.rawValue {
            return "snr_mode \(record.snrMode) differs from the mix's \(options.snrMode.rawValue) (mix.json)"
        }
        if record.levelMode != options.levelMode.rawValue {
            return "level_mode \(record.levelMode) differs from the mix's \(options.levelMode.rawValue) (mix.json)"
        }
        let target = record.rir == nil ? "dry" : options.target.rawValue
        if record.target != target { return "target \(record.target) differs from the mix's \(target) for this clip (mix.json)" }
        guard record.numSamples > 0 else { return "num_samples must be positive" }
        guard record.snrDBRequested.isFinite else { return "snr_db_requested must be a number" }
        guard record.levelDBFS.isFinite && record.levelDBFS <= 0 else {
            return "level_dbfs \(record.levelDBFS) must be a level of at most 0 dBFS"
        }
        guard !record.speechSources.isEmpty else { return "speech_sources is empty" }
        // A piece ends inside the clip (an edited length beyond it was once cut silently while the record kept it).
        for piece in record.speechSources
        where piece.offset < 0 || piece.length <= 0 || piece.position < 0 || piece.position >= record.numSamples
            || piece.length > record.numSamples - piece.position {
            return "speech source \(piece.path): offset \(piece.offset), length \(piece.length), position \(piece.position) "
                + "do not fit a clip of \(record.numSamples) samples"
        }
        if record.wind != nil && !record.noiseSources.isEmpty {
            return "a clip with wind noise has no noise_sources (the wind replaces them)"
        }
        if record.wind == nil && record.noiseSources.isEmpty { return "noise_sources is empty (and the clip has no wind)" }
        for piece in record.noiseSources where piece.offset < 0 || !piece.snrDB.isFinite {
            return "noise source \(piece.path): offset \(piece.offset) and snr_db \(piece.snrDB) must be a non-negative sample and a number"
        }
        if let cutoff = record.lowpassHz, !(cutoff > 0 && cutoff < Double(record.sampleRate) / 2) {
            return "lowpass_hz \(cutoff) must be in (0, \(record.sampleRate / 2)) Hz"
        }
        var stages = Set<Degradation.Stage>()
        for degradation in record.degradations ?? [] {
            guard stages.insert(degradation.stage).inserted else { return "degradations name stage \(degradation.stage.rawValue) twice" }
            if let reason = problem(degradation) { return "degradation \(degradation.stage.rawValue): \(reason)" }
        }
        return nil
    }

    /// What a degradation entry lacks or holds out of range (nil: nothing).
    private static func problem(_ degradation: Degradation) -> String? {
        switch degradation.stage {
        case .bandwidth:
            let rate = degradation.bandwidthRateHz ?? degradation.bandwidthHz.map { 2 * $0 }
            guard let rate else { return "needs bandwidth_hz or bandwidth_rate_hz" }
            guard rate > 0 else { return "the band must be positive" }
        case .codec:
            guard degradation.codec != nil else { return "needs codec" }
        case .packetLoss:
            guard let packetMs = degradation.packetMs, packetMs > 0 else { return "needs packet_ms, positive" }
            guard let lost = degradation.lostPackets else { return "needs lost_packets" }
            if lost.contains(where: { $0 < 0 }) { return "lost_packets must be packet indices (0 or more)" }
        case .clipDistortion:
            if let low = degradation.clipQuantileLow, let high = degradation.clipQuantileHigh {
                guard 0 <= low && low <= high && high <= 1 else {
                    return "clip_quantile_low and clip_quantile_high must satisfy 0 <= low <= high <= 1"
                }
            } else {
                guard let fraction = degradation.clipDistortion, fraction > 0 && fraction <= 1 else {
                    return "needs clip_distortion in (0, 1], or clip_quantile_low and clip_quantile_high"
                }
            }
        }
        return nil
    }

    /// The plan of a checked record: source paths turned into indices of the sorted sources
    /// (`position`), each piece checked against its source's length; realised figures left out
    /// (the render computes them), `lost_fraction` recomputed from `lost_packets`.
    /// - Throws: ``Problem`` for a piece beyond its source.
    static func plan(of record: MixManifestRecord, options: MixOptions, speech: [MixSource], noise: [MixSource], rirs: [MixSource],
                     position: [MixSource.Kind: [String: Int]]) throws -> ClipPlan {
        let rate = record.sampleRate
        let speechPieces = try record.speechSources.map { piece -> ClipPlan.SpeechPiece in
            let index = position[.speech]![piece.path]!
            let frames = speech[index].frames(atRate: rate)
            guard piece.offset + piece.length <= frames else {
                throw Problem(reason: "speech source \(piece.path) has \(frames) samples at \(rate) Hz; "
                              + "offset \(piece.offset) + length \(piece.length) goes beyond")
            }
            return .init(source: index, offset: piece.offset, length: piece.length, position: piece.position)
        }
        let noisePieces = try record.noiseSources.map { piece -> ClipPlan.NoisePiece in
            let index = position[.noise]![piece.path]!
            let frames = noise[index].frames(atRate: rate)
            guard piece.offset < max(1, frames) else {
                throw Problem(reason: "noise source \(piece.path) has \(frames) samples at \(rate) Hz; offset \(piece.offset) is beyond")
            }
            return .init(source: index, offset: piece.offset, snrDB: piece.snrDB)
        }
        var plan = ClipPlan(
            index: record.index, clipID: record.clipID, split: record.split, seed: record.seed, length: record.numSamples,
            speech: speechPieces, noises: noisePieces, snrDB: record.snrDBRequested, levelDBFS: record.levelDBFS,
            rir: record.rir.map { position[.rir]![$0]! }, lowpassHz: record.lowpassHz,
            degradations: record.degradations.map { $0.map { planned($0, length: record.numSamples, sampleRate: rate) } })
        if options.isNativeRate {
            plan.sampleRate = rate
            if let first = speechPieces.first, speech[first.source].sampleRate != rate {
                throw Problem(reason: "sample_rate \(rate) differs from the rate of its speech source "
                              + "\(speech[first.source].path) (\(speech[first.source].sampleRate) Hz), which a native mix keeps")
            }
        }
        // The wind's SNR is the clip's (`snr_db_requested`); the manifest's `wind.snr_db` repeats it.
        plan.wind = record.wind.map { WindDraw(snrDB: record.snrDBRequested, seed: $0.seed) }
        return plan
    }

    /// A degradation entry as planned: realised figures cleared or recomputed from the parameters.
    private static func planned(_ degradation: Degradation, length: Int, sampleRate: Int) -> Degradation {
        var entry = degradation
        entry.clippedFraction = nil
        if entry.stage == .packetLoss, let packetMs = entry.packetMs, let lost = entry.lostPackets {
            let size = PacketLossStage.packetSamples(packetMs: packetMs, sampleRate: sampleRate)
            let packets = (length + size - 1) / size
            entry.lostFraction = packets == 0 ? 0 : Double(Set(lost).filter { $0 < packets }.count) / Double(packets)
        }
        return entry
    }
}
