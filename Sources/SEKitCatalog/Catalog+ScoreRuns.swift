import Foundation
import GRDB

extension Catalog {
    /// Finished score runs on `corpus`, newest first (a sharded corpus matches any of its mix runs).
    public func scoreRuns(on corpus: ScoredCorpus) throws(CatalogError) -> [RunRecord] {
        let runs = try read { db in
            try RunRecord.filter(RunRecord.Columns.kind == RunKind.score.rawValue
                                    && RunRecord.Columns.status == RunStatus.finished.rawValue)
                .order(RunRecord.Columns.startedAt.desc, RunRecord.Columns.id).fetchAll(db)
        }
        var matching: [RunRecord] = []
        for run in runs {
            let other = try scoredCorpus(of: run)
            if other == corpus || !Set(other.mixRuns).isDisjoint(with: corpus.mixRuns) { matching.append(run) }
        }
        return matching
    }

    /// The corpus a run reference (id, unique prefix or name) stands for: a mix run's corpus, or what
    /// another run scored (see ``scoredCorpus(of:)``).
    public func scoredCorpus(named reference: String) throws(CatalogError) -> ScoredCorpus {
        // A corpus name is looked for among mixes first: an import of the same name (`catalog import
        // --corpus mine` beside `mix --out corpora/mine`) is not a scored corpus.
        let run: RunRecord
        do {
            run = try resolveRun(reference, kind: .mix)
        } catch {
            guard case .noSuchRun = error else { throw error }
            run = try resolveRun(reference)
        }
        switch run.kind {
        case .mix: return ScoredCorpus(key: "mix:" + run.id.rawValue)
        default: return try scoredCorpus(of: run)
        }
    }

    /// The subset labels (other than all clips, `''`) of the stored aggregates of finished runs of
    /// `kind` (only of `runs`, of `metric`, when given), in order.
    public func aggregateSubsets(metric: String? = nil, kind: RunKind = .score, runs: [RunID]? = nil) throws(CatalogError) -> [String] {
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
