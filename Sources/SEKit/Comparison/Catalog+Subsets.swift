import Foundation
import GRDB

extension Catalog {
    /// The stored subset label (`''` for all clips) that `requested` (`all`, `split=test`, `snr=0`)
    /// names among the aggregates of finished runs of `kind` (of `runs` when given, of `metric` when
    /// given): the label itself, or, for `snr=X` where SNRs were drawn from a range, the 5 dB band
    /// holding X (``SNRSubset/resolve(_:among:)``).
    /// - Throws: ``ComparisonError/invalidParameter(name:value:reason:)`` (`subset`) listing the subsets
    ///   that exist when none matches; the catalogue's errors as ``ComparisonError/catalog(_:)``.
    func resolveSubset(_ requested: String, metric: String? = nil, kind: RunKind = .score,
                       runs: [RunID]? = nil) throws(ComparisonError) -> String {
        guard requested != "all" else { return "" }
        let labels: [String]
        do { labels = try subsetLabels(metric: metric, kind: kind, runs: runs) } catch { throw .catalog(error) }
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

    /// The subset labels (other than all clips) of finished runs of `kind` (of `runs`, of `metric`), in order.
    private func subsetLabels(metric: String?, kind: RunKind, runs: [RunID]?) throws(CatalogError) -> [String] {
        try read { db in
            var sql = """
                SELECT DISTINCT m.subset FROM run_metrics m JOIN runs ON runs.id = m.run_id
                WHERE runs.kind = ? AND runs.status = 'finished' AND m.subset != ''
                """
            var arguments: [any DatabaseValueConvertible] = [kind.rawValue]
            if let metric { sql += " AND m.metric = ?"; arguments.append(metric) }
            if let runs {
                sql += " AND m.run_id IN (\(Array(repeating: "?", count: runs.count).joined(separator: ",")))"
                arguments += runs.map(\.rawValue)
            }
            return try String.fetchAll(db, sql: sql + " ORDER BY m.subset", arguments: StatementArguments(arguments))
        }
    }
}
