import Foundation

/// The subsets of clips a comparison reads aggregates of (`runs leaderboard`, `runs best`).
enum ComparisonSubset {
    /// The stored subset label (`''` for all clips) that `requested` (`all`, `split=test`, `snr=0`)
    /// names among the aggregates of finished runs of `kind` in `catalog` (of `runs` when given, of
    /// `metric` when given): the label itself, or, for `snr=X` where SNRs were drawn from a range,
    /// the 5 dB band holding X (``SNRSubset/resolve(_:among:)``).
    /// - Throws: ``ComparisonError/invalidParameter(name:value:reason:)`` (`subset`) listing the subsets
    ///   that exist when none matches; the catalogue's errors as ``ComparisonError/catalog(_:)``.
    static func resolve(_ requested: String, metric: String? = nil, kind: RunKind = .score, runs: [RunID]? = nil,
                        in catalog: Catalog) throws(ComparisonError) -> String {
        guard requested != "all" else { return "" }
        let labels = try ComparisonError.carrying { () throws(CatalogError) in
            try catalog.aggregateSubsets(metric: metric, kind: kind, runs: runs)
        }
        if let label = SNRSubset.resolve(requested, among: labels) { return label }
        // SNR subsets by SNR (`snr=[5,10)` before `snr=[10,15)`), then the others by name.
        let ordered = labels.sorted { a, b in
            let x = SNRSubset(label: a)?.lowDB ?? .infinity, y = SNRSubset(label: b)?.lowDB ?? .infinity
            return x != y ? x < y : a < b
        }
        let existing = labels.isEmpty ? "none but all" : "all, " + ordered.joined(separator: ", ")
        throw .invalidParameter(name: "subset", value: requested, reason: "no finished \(kind.rawValue) run has this subset"
                                    + "\(metric.map { " for \($0)" } ?? ""); subsets that exist: \(existing)")
    }
}
