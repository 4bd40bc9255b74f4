import Foundation

/// Aggregate of one metric over a subset of clips.
public struct ScoreAggregate: Sendable, Codable, Equatable {
    /// Metric name (`stoi`), with a suffix for the noisy input (`stoi_noisy`) and the
    /// improvement (`stoi_improvement`, enhanced minus noisy, per clip).
    public var metric: String
    /// `all`, `snr=5`, `split=test`.
    public var subset: String
    public var mean: Double
    /// Sample standard deviation (n − 1); 0 for one clip.
    public var std: Double
    /// 95% confidence interval of the mean (Student t, n − 1 degrees of freedom); nil (JSON `null`)
    /// for one clip, where it is undefined.
    public var ci95Low: Double?
    public var ci95High: Double?
    public var n: Int

    enum CodingKeys: String, CodingKey {
        case metric, subset, mean, std, ci95Low = "ci95_low", ci95High = "ci95_high", n
    }

    /// Every key written, an undefined interval as `null`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(metric, forKey: .metric)
        try container.encode(subset, forKey: .subset)
        try container.encode(mean, forKey: .mean)
        try container.encode(std, forKey: .std)
        try container.encode(ci95Low, forKey: .ci95Low)
        try container.encode(ci95High, forKey: .ci95High)
        try container.encode(n, forKey: .n)
    }
}

/// Aggregates per metric for the whole set, per SNR and per split.
public enum ScoreSummary {
    /// Subset label for a requested SNR: `snr=5`, `snr=-2.5`.
    public static func snrSubset(_ snrDB: Double) -> String { SNRSubsetRule.perValue.label(snrDB) }

    /// The subsets a set of clips is summarised over, given each clip's requested SNR, split and
    /// degradation kinds: `all` (every clip), then one per SNR (ascending) when some clips have one,
    /// then one per split (sorted) when there are several (or one and clips without a split), then,
    /// when some clip is degraded, `degradation=none` and one per degradation kind and family
    /// (sorted: `degradation=codec`, `degradation=mp3`, `degradation=packet-loss`; see
    /// ``DegradationLabels``), then the reverberation subsets (`rir=none`, `rir=any`, `rir=NAME`,
    /// `target=T`: ``ClipReverberation/subsets(_:)``) when some clip was reverberated. SNR subsets follow
    /// `snrRule`, the corpus's recorded rule (a mix's list
    /// of SNRs: one per value; a range: 5 dB bands, `snr=[0,5)`); without one, they are exact up to
    /// 25 distinct SNRs and banded above (``SNRSubsetRule/inferred(distinctSNRs:)``). `members` are
    /// indices into the arrays, ascending.
    public static func subsets(snrDB: [Double?], split: [String?], degradations: [[String]?] = [],
                               reverberation: [ClipReverberation?] = [],
                               snrRule: SNRSubsetRule? = nil) -> [(label: String, members: [Int])] {
        let all = Array(snrDB.indices)
        var subsets: [(label: String, members: [Int])] = [("all", all)]
        let snrs = Set(snrDB.compactMap { $0 })
        if !snrs.isEmpty {
            let rule = snrRule ?? SNRSubsetRule.inferred(distinctSNRs: snrs.count)
            func bucket(_ snr: Double) -> String { rule.label(snr) }
            var groups: [String: [Int]] = [:]
            var order: [String: Double] = [:]
            for index in all { if let snr = snrDB[index] {
                let key = bucket(snr)
                groups[key, default: []].append(index)
                order[key] = min(order[key] ?? snr, snr)
            } }
            subsets += groups.keys.sorted { order[$0]! < order[$1]! }.map { ($0, groups[$0]!) }
        }
        let splits = Set(split.compactMap { $0 })
        if splits.count > 1 || (splits.count == 1 && split.contains { $0 == nil }) {
            subsets += splits.sorted().map { name in ("split=\(name)", all.filter { split[$0] == name }) }
        }
        return subsets + degradationSubsets(degradations) + ClipReverberation.subsets(reverberation)
    }

    /// `degradation=NAME` subsets (``subsets(snrDB:split:degradations:reverberation:snrRule:)``): none when no clip is degraded.
    static func degradationSubsets(_ degradations: [[String]?]) -> [(label: String, members: [Int])] {
        guard degradations.contains(where: { !($0 ?? []).isEmpty }) else { return [] }
        var groups: [String: [Int]] = [:]
        for (index, kinds) in degradations.enumerated() {
            guard let kinds else { continue }
            for name in Set(DegradationLabels.names(ofKinds: kinds)) { groups[name, default: []].append(index) }
        }
        let names = groups.keys.sorted { ($0 == DegradationLabels.none ? 0 : 1, $0) < ($1 == DegradationLabels.none ? 0 : 1, $1) }
        return names.map { ("degradation=\($0)", groups[$0]!) }
    }

    /// Aggregates of the scored clips (failed clips are left out of the numbers; their count is
    /// reported separately), over ``subsets(snrDB:split:degradations:reverberation:snrRule:)``.
    public static func aggregate(_ clips: [ClipScores], metrics: [Metric], snrRule: SNRSubsetRule? = nil) -> [ScoreAggregate] {
        let scored = clips.filter { $0.error == nil }
        let columns = metrics.map { metric in
            MetricColumn(metric: metric, enhanced: scored.map { $0.enhanced[metric] }, noisy: scored.map { $0.noisy[metric] })
        }
        return aggregate(columns, snrDB: scored.map(\.pair.snrDB), split: scored.map(\.pair.split),
                         degradations: scored.map(\.pair.degradations), reverberation: scored.map(\.pair.reverberation), snrRule: snrRule)
    }

    /// One metric's values for each scored clip (nil: none), in clip order.
    public struct MetricColumn: Sendable {
        public var metric: Metric
        public var enhanced: [Double?] = []
        public var noisy: [Double?] = []
    }

    /// Aggregates of the scored clips given as columns (``aggregate(_:metrics:snrRule:)`` without the
    /// per-clip structures: for the million-clip runs a catalogue merge recomputes). For each metric,
    /// subset and series (enhanced, `_noisy`, `_improvement` = enhanced − noisy per clip) with values.
    public static func aggregate(_ columns: [MetricColumn], snrDB: [Double?], split: [String?],
                                 degradations: [[String]?], reverberation: [ClipReverberation?] = [],
                                 snrRule: SNRSubsetRule? = nil) -> [ScoreAggregate] {
        let subsets = Self.subsets(snrDB: snrDB, split: split, degradations: degradations, reverberation: reverberation, snrRule: snrRule)
        var result: [ScoreAggregate] = []
        for column in columns {
            let improvement = zip(column.enhanced, column.noisy).map { value, base in value.flatMap { value in base.map { value - $0 } } }
            let series = [(column.metric.rawValue, column.enhanced), (column.metric.rawValue + "_noisy", column.noisy),
                          (column.metric.rawValue + "_improvement", improvement)]
            for (subset, members) in subsets {
                for (name, values) in series {
                    let present = members.compactMap { values[$0] }
                    guard !present.isEmpty else { continue }
                    let s = Summary(values: present)
                    // One clip: the interval is undefined (NaN in the summary), nil here.
                    result.append(ScoreAggregate(metric: name, subset: subset, mean: s.mean, std: s.std,
                                                 ci95Low: s.ci95Low.isNaN ? nil : s.ci95Low,
                                                 ci95High: s.ci95High.isNaN ? nil : s.ci95High, n: s.n))
                }
            }
        }
        return result
    }
}
