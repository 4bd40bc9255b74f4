import Foundation
import GRDB

extension Catalog {
    /// Renames a run: its `name`, which run references (`sekit runs show NAME`), leaderboards and
    /// reports show. Its id, parameters (a score run's `checkpoint` stays as it was given) and files
    /// are unchanged.
    /// - Throws: ``CatalogError/invalidParameter(name:value:reason:)`` (`name`) for an empty name;
    ///   ``CatalogError/unknownRun(path:id:reason:)``; the database's errors.
    public func renameRun(_ id: RunID, to name: String) throws(CatalogError) {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidParameter(name: "name", value: name, reason: "is empty; give the run a name")
        }
        let path = url.path
        try write { db in
            try db.execute(sql: "UPDATE runs SET name = ? WHERE id = ?", arguments: [name, id])
            guard db.changesCount == 1 else { throw CatalogError.unknownRun(path: path, id: id.rawValue, reason: "no such run") }
        }
    }

    /// `run` and every run that descends from it (children, their children, ...), the deepest first:
    /// the order they can be deleted in.
    public func runWithDescendants(_ run: RunID) throws(CatalogError) -> [RunRecord] {
        try read { db in
            try RunRecord.fetchAll(db, sql: """
                WITH RECURSIVE tree(id, depth) AS (
                    SELECT ?, 0 UNION ALL SELECT r.id, tree.depth + 1 FROM runs r JOIN tree ON r.parent_id = tree.id WHERE tree.depth < 64)
                SELECT runs.* FROM runs JOIN (SELECT id, max(depth) AS depth FROM tree GROUP BY id) t ON t.id = runs.id
                ORDER BY t.depth DESC, runs.started_at DESC, runs.id
                """, arguments: [run])
        }
    }

    /// Why the runs of `runs` cannot be deleted as they are: sources they imported that clips of other
    /// runs use, listening tests that rated their outputs. Empty when they can.
    public func deletionBlockers(_ runs: [RunRecord]) throws(CatalogError) -> [String] {
        let ids = runs.map(\.id.rawValue)
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try read { db in
            var blockers = try String.fetchAll(db, sql: """
                SELECT DISTINCT 'source ' || s.id || ' (imported by ' || s.import_run_id || ') is used by clips of run ' || c.run_id
                FROM sources s JOIN clips c ON c.speech_source_id = s.id OR c.rir_source_id = s.id
                WHERE s.import_run_id IN (\(marks)) AND c.run_id NOT IN (\(marks))
                UNION SELECT DISTINCT 'source ' || s.id || ' (imported by ' || s.import_run_id || ') is used by clips of run ' || c.run_id
                FROM sources s JOIN clip_noises n ON n.source_id = s.id JOIN clips c ON c.id = n.clip_id
                WHERE s.import_run_id IN (\(marks)) AND c.run_id NOT IN (\(marks))
                ORDER BY 1 LIMIT 20
                """, arguments: StatementArguments(ids + ids + ids + ids))
            blockers += try String.fetchAll(db, sql: """
                SELECT DISTINCT 'listening test ' || test || ' rated the outputs of run ' || score_run_id
                FROM listening_stimuli WHERE score_run_id IN (\(marks)) ORDER BY 1
                """, arguments: StatementArguments(ids))
            return blockers
        }
    }

    /// Deletes `runs` (as ``runWithDescendants(_:)`` lists them: children before parents) and every
    /// row recorded with them: parameters, tags, step metrics, artifacts, clips with their noises and
    /// degradations, scores, aggregates, the sources they imported, and the scores other runs gave their
    /// clips; a corpus made by a deleted mix run and scored by no remaining run. One transaction: all
    /// or nothing. Files on disk are never touched.
    /// - Throws: ``CatalogError/invalidParameter(name:value:reason:)`` (`run`) naming what blocks the
    ///   deletion (``deletionBlockers(_:)``); the database's errors (a run with children outside `runs`).
    public func deleteRuns(_ runs: [RunRecord]) throws(CatalogError) {
        guard let first = runs.last else { return }
        let blockers = try deletionBlockers(runs)
        guard blockers.isEmpty else {
            throw .invalidParameter(name: "run", value: first.id.rawValue, reason: "cannot be deleted: " + blockers.joined(separator: "; "))
        }
        let ids = runs.map(\.id.rawValue)
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        try write { db in
            // Sources and parents are RESTRICTed: clips go first (their noises and degradations with
            // them), with the scores that name them (`RUN/CLIP`, no foreign key); then the sources the
            // runs imported; then the runs, children first (their parameters and the rest cascade).
            try db.execute(sql: "DELETE FROM clip_scores WHERE clip_id IN (SELECT id FROM clips WHERE run_id IN (\(marks)))",
                           arguments: StatementArguments(ids))
            try db.execute(sql: "DELETE FROM clips WHERE run_id IN (\(marks))", arguments: StatementArguments(ids))
            try db.execute(sql: "DELETE FROM sources WHERE import_run_id IN (\(marks))", arguments: StatementArguments(ids))
            for run in runs { try db.execute(sql: "DELETE FROM runs WHERE id = ?", arguments: [run.id]) }
            // A corpus the deleted mix runs made no longer names them; one neither made nor scored here goes.
            try db.execute(sql: "DELETE FROM corpus_mix_runs WHERE mix_run_id IN (\(marks))", arguments: StatementArguments(ids))
            try db.execute(sql: """
                DELETE FROM corpora WHERE identity NOT IN (SELECT corpus FROM corpus_mix_runs)
                AND identity NOT IN (SELECT corpus FROM score_targets WHERE corpus IS NOT NULL)
                """)
        }
    }
}
