import Foundation
import GRDB

extension Catalog {
    /// Finished score runs on `corpus`, newest first, in one query of `score_targets`: the runs that
    /// scored that corpus (or, for a mix run's corpus not recorded yet, any corpus that mix run made),
    /// that folder of references, or those outputs.
    public func scoreRuns(on corpus: ScoredCorpus) throws(CatalogError) -> [RunRecord] {
        let (kind, value) = corpus.key.split(separator: ":", maxSplits: 1).map(String.init).pair
        let condition: String
        var arguments: [String] = [value]
        switch kind {
        case "corpus": condition = "t.corpus = ?"
        case "mix":
            let marks = corpus.mixRuns.map { _ in "?" }.joined(separator: ",")
            condition = "t.corpus IN (SELECT corpus FROM corpus_mix_runs WHERE mix_run_id IN (\(marks)))"
            arguments = corpus.mixRuns.map(\.rawValue)
        case "folder": condition = "t.corpus IS NULL AND t.folder = ?"
        default: condition = "t.corpus IS NULL AND t.folder IS NULL AND t.enhanced_folder = ?"
        }
        return try read { db in
            try RunRecord.fetchAll(db, sql: """
                SELECT r.* FROM runs r JOIN score_targets t ON t.run_id = r.id
                WHERE r.kind = 'score' AND r.status = 'finished' AND \(condition)
                ORDER BY r.started_at DESC, r.id
                """, arguments: StatementArguments(arguments))
        }
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
        case .mix: return try corpus(ofMix: run.id)
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

private extension Array where Element == String {
    /// The two parts of a `KIND:VALUE` key.
    var pair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
