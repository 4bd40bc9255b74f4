import Foundation
import GRDB

extension Catalog {
    /// A finished run with its stored aggregate of one metric in one subset (`runs best`'s candidates).
    package struct RunAggregate: Sendable {
        package var id: RunID
        package var name: String
        package var startedAt: Date
        package var aggregate: RunMetricRecord
    }

    /// The stored aggregates (`run_metrics`) of `runs` in `subset` (`""`: all clips), every metric.
    package func aggregates(of runs: [RunID], subset: String) throws(CatalogError) -> [RunMetricRecord] {
        guard !runs.isEmpty else { return [] }
        return try read { db in
            try RunMetricRecord.filter(RunMetricRecord.Columns.subset == subset && runs.contains(RunMetricRecord.Columns.runID))
                .fetchAll(db)
        }
    }

    /// The finished runs of `kind` that `filter` keeps and that have an aggregate of `metric` in
    /// `subset`, each with that aggregate (in no particular order).
    package func finishedRuns(of kind: RunKind, withAggregateOf metric: String, subset: String,
                              matching filter: CatalogFilter.Compiled) throws(CatalogError) -> [RunAggregate] {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT runs.id, runs.name, runs.started_at, m.mean, m.ci95_low, m.ci95_high, m.n
                FROM runs JOIN run_metrics m ON m.run_id = runs.id AND m.metric = ? AND m.subset = ?
                WHERE runs.kind = ? AND runs.status = 'finished' AND \(filter.sql)
                """, arguments: [metric, subset, kind.rawValue] + filter.arguments)
            var found: [RunAggregate] = []
            while let row = try rows.next() {
                let id = RunID(row[0] as String)
                found.append(RunAggregate(id: id, name: row[1], startedAt: row[2],
                                          aggregate: RunMetricRecord(runID: id, metric: metric, subset: subset, mean: row[3],
                                                                     ci95Low: row[4], ci95High: row[5], n: row[6])))
            }
            return found
        }
    }
}
