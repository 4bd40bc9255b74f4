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
    /// 95% confidence interval of the mean (Student t, n − 1 degrees of freedom).
    public var ci95Low: Double
    public var ci95High: Double
    public var n: Int

    enum CodingKeys: String, CodingKey {
        case metric, subset, mean, std, ci95Low = "ci95_low", ci95High = "ci95_high", n
    }
}

/// Aggregates per metric for the whole set, per SNR and per split.
public enum ScoreSummary {
    /// Subset label for a requested SNR: `snr=5`, `snr=-2.5`.
    public static func snrSubset(_ snrDB: Double) -> String {
        let rounded = (snrDB * 100).rounded() / 100
        return "snr=" + formatNumber(rounded)
    }

    /// Aggregates of the scored clips (failed clips are left out of the numbers; their count is
    /// reported separately). SNR subsets are made only when the corpus has at most 25 distinct SNRs;
    /// continuous SNR draws are bucketed to 5 dB (`snr=[0,5)`).
    public static func aggregate(_ clips: [ClipScores], metrics: [Metric]) -> [ScoreAggregate] {
        let scored = clips.filter { $0.error == nil }
        var subsets: [(String, [ClipScores])] = [("all", scored)]
        let snrs = Set(scored.compactMap(\.pair.snrDB))
        if !snrs.isEmpty {
            let exact = snrs.count <= 25
            func bucket(_ snr: Double) -> String {
                if exact { return snrSubset(snr) }
                let low = (snr / 5).rounded(.down) * 5
                return "snr=[" + formatNumber(low) + "," + formatNumber(low + 5) + ")"
            }
            var groups: [String: [ClipScores]] = [:]
            var order: [String: Double] = [:]
            for clip in scored { if let snr = clip.pair.snrDB {
                let key = bucket(snr)
                groups[key, default: []].append(clip)
                order[key] = min(order[key] ?? snr, snr)
            } }
            subsets += groups.keys.sorted { order[$0]! < order[$1]! }.map { ($0, groups[$0]!) }
        }
        let splits = Set(scored.compactMap(\.pair.split))
        if splits.count > 1 || (splits.count == 1 && scored.contains { $0.pair.split == nil }) {
            subsets += splits.sorted().map { split in ("split=\(split)", scored.filter { $0.pair.split == split }) }
        }
        var result: [ScoreAggregate] = []
        for metric in metrics {
            for (subset, group) in subsets {
                let series: [(String, [Double])] = [
                    (metric.rawValue, group.compactMap { $0.enhanced[metric] }),
                    (metric.rawValue + "_noisy", group.compactMap { $0.noisy[metric] }),
                    (metric.rawValue + "_improvement", group.compactMap { $0.improvement[metric] }),
                ]
                for (name, values) in series where !values.isEmpty {
                    let s = Summary(values: values)
                    result.append(ScoreAggregate(metric: name, subset: subset, mean: s.mean, std: s.std,
                                                 ci95Low: s.ci95Low, ci95High: s.ci95High, n: s.n))
                }
            }
        }
        return result
    }
}
