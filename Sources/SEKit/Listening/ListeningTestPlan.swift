import Foundation

/// Which clips a listening test plays: a draw from the clips every run scored, stratified by input
/// SNR (and by degradation kind when the corpus has degradations).
///
/// Strata are the distinct requested SNRs, or their 5 dB bands, as `sekit score` reports them (the
/// corpus's ``SNRSubsetRule``; clips without one form their own stratum), crossed with the clip's first degradation
/// kind (`none` without). Each stratum's clips are shuffled (Fisher-Yates with `SplitMix64` seeded
/// from `seed`), then strata give one clip each in turn, in an order drawn from `seed`, until `count`
/// are drawn: strata are as balanced as their sizes allow, and when the last round cannot reach every
/// stratum, the seed chooses which. The drawn clips are listed in clip-id order.
public struct ListeningTestPlan: Sendable, Equatable {
    /// One drawn clip.
    public struct Clip: Sendable, Equatable {
        /// Catalogue clip id, as the score runs recorded it.
        public var id: String
        public var snrDB: Double?
        public var degradations: [String]?
        /// The stratum the clip was drawn from (`snr=0`, `snr=[0,5)/mp3`, ...).
        public var stratum: String
    }

    public var clips: [Clip]

    /// Draws `count` clips common to all of `runs`.
    /// - Throws: ``ListenError/invalidOption(name:value:reason:)`` (`clips`) when the runs share fewer clips.
    public static func draw(from runs: [RunScores], count: Int, seed: UInt64) throws -> ListeningTestPlan {
        guard let first = runs.first else {
            throw ListenError.invalidOption(name: "runs", value: "", reason: "name at least one score run")
        }
        guard count >= 1 else { throw ListenError.invalidOption(name: "clips", value: "\(count)", reason: "must be at least 1") }
        var common = Set(first.clipIDs)
        for run in runs.dropFirst() { common.formIntersection(run.clipIDs) }
        guard common.count >= count else {
            let names = runs.map(\.run.name).joined(separator: ", ")
            throw ListenError.invalidOption(
                name: "clips", value: "\(count)",
                reason: "the runs \(names) have \(common.count) clips in common; ask for at most that many")
        }
        let index = first.indexOfClip
        let ids = common.sorted()
        let snrs = Set(ids.compactMap { first.snrDB[index[$0]!] })
        let rule = runs.allSatisfy({ $0.snrRule == first.snrRule }) ? first.snrRule : nil
        let banded = (rule ?? SNRSubsetRule.inferred(distinctSNRs: snrs.count)) == .bands5dB
        var strata: [String: [Clip]] = [:]
        for id in ids {
            let i = index[id]!
            let snr = first.snrDB[i]
            let degradations = first.degradations.indices.contains(i) ? first.degradations[i] : nil
            var stratum =
                snr.map {
                    banded
                        ? "snr=[\(Int((($0) / 5).rounded(.down)) * 5),\(Int((($0) / 5).rounded(.down)) * 5 + 5))"
                        : "snr=\(ReportNumber.fixed($0, decimals: 1))"
                } ?? "snr=unknown"
            if let degradations, first.degradations.contains(where: { $0?.isEmpty == false }) {
                stratum += "/" + (degradations.first ?? "none")
            }
            strata[stratum, default: []].append(Clip(id: id, snrDB: snr, degradations: degradations, stratum: stratum))
        }
        // Strata in SNR order (then by name), each shuffled with its own child seed.
        let keys = strata.keys.sorted { a, b in
            let sa = strata[a]![0].snrDB ?? .infinity
            let sb = strata[b]![0].snrDB ?? .infinity
            return sa != sb ? sa < sb : a < b
        }
        var queues = keys.enumerated().map { position, key in
            var generator = SplitMix64(seed: SplitMix64.childSeed(seed, index: UInt64(position), stream: 0x6C69_7374))
            var clips = strata[key]!
            generator.shuffle(&clips)
            return clips[...]
        }
        // Rounds visit the strata in a seeded order: when a round cannot give every stratum a clip (more
        // strata than clips left, e.g. one stratum per clip of a small continuous SNR draw), which strata
        // give one is the seed's choice, not always the lowest SNRs.
        var order = Array(queues.indices)
        var roundGenerator = SplitMix64(seed: SplitMix64.childSeed(seed, index: 0, stream: 0x726F_756E))
        roundGenerator.shuffle(&order)
        var drawn: [Clip] = []
        while drawn.count < count {
            for q in order where drawn.count < count {
                if let clip = queues[q].popFirst() { drawn.append(clip) }
            }
        }
        return ListeningTestPlan(clips: drawn.sorted { $0.id < $1.id })
    }
}
