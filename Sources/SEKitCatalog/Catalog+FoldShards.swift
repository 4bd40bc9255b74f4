import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// The shard runs (`params.shard` = `i/N`, N > 1) of the open catalogue (schema `main`).
    static func shardRuns(_ db: Database, file: String) throws -> [ShardRun] {
        let ids = try String.fetchAll(db,
                sql: "SELECT run_id FROM params WHERE key = 'shard' AND value_text NOT IN ('', '1/1') ORDER BY run_id")
        var runs: [ShardRun] = []
        for id in ids {
            guard let record = try RunRecord.fetchOne(db, key: id) else { continue }
            let params = Dictionary(uniqueKeysWithValues: try ParamRecord.filter(ParamRecord.Columns.runID == id)
                .fetchAll(db).map { ($0.key, $0.valueText) })
            guard let shard = ShardRun.shard(of: params) else { continue }
            runs.append(ShardRun(record: record, params: params, shard: shard, file: file))
        }
        return runs
    }

    /// Writes the run a group folds into and its parameters (kept when an earlier merge wrote them),
    /// without its parent, which may arrive with a later input (``finishFold(_:_:)`` sets it).
    ///
    /// A new fold is `running` until ``finishFold(_:_:)`` (its rows arrive input by input, each in
    /// its own transaction), marked with ``foldingKey`` = this process (`HOST:PID`): a merge killed
    /// half-way leaves a run that `catalog check` finds abandoned, never a `finished` run with part
    /// of its clips. An earlier fold that finished stays as it is; one that did not is taken up again.
    static func beginFold(_ group: ShardFoldGroup, _ db: Database) throws {
        var record = group.folded
        record.parentID = nil
        record.status = .running
        record.finishedAt = nil
        try record.insert(db, onConflict: .ignore)
        for (key, value) in group.params { try ParamRecord(runID: group.folded.id, key: key, value: value).upsert(db) }
        guard try RunRecord.fetchOne(db, key: group.folded.id.rawValue)?.status != .finished else { return }
        // New, or begun by a merge that did not complete: taken up by this one.
        try db.execute(sql: "UPDATE runs SET status = 'running', finished_at = NULL, error = NULL WHERE id = ?",
                       arguments: [group.folded.id])
        try ParamRecord(runID: group.folded.id, key: foldingKey, value: foldingProcess).upsert(db)
    }

    /// Ends the folds of `groups` that did not complete `failed`, with `error` (the merge stopped).
    static func failFolds(_ groups: [ShardFoldGroup], error: String, _ db: Database) throws {
        for id in groups.map(\.folded.id.rawValue) {
            try db.execute(sql: """
                UPDATE runs SET status = 'failed', finished_at = ?, error = ? WHERE id = ? AND status = 'running'
                """, arguments: [Date(), "the catalog merge folding it stopped: \(error); run the same merge again to complete it", id])
            try db.execute(sql: "DELETE FROM params WHERE run_id = ? AND key = ?", arguments: [id, foldingKey])
        }
    }

    /// Completes a fold once every input is copied, in the caller's transaction: the folded run's
    /// parent is set, and shard runs OUT held before the merge (copied by an earlier `--no-fold`
    /// merge; shard runs of the inputs were copied under the folded run already) hand their rows to
    /// it: children and sources point to it, a mix's clips take ids under it (`FOLDED/CLIP`, with
    /// their noises, degradations and every score row naming them), scores and artifacts move to
    /// it, and the shard runs go.
    static func finishFold(_ group: ShardFoldGroup, _ db: Database) throws {
        let folded = group.folded.id.rawValue
        // The shards' parent, else the run their parent parameter names when the merge brought it in.
        let named = ShardFoldRules.parentParams[group.kind].flatMap { group.params[$0] }
        try db.execute(sql: "UPDATE runs SET parent_id = COALESCE(?, (SELECT id FROM runs WHERE id = ?)) WHERE id = ?",
                       arguments: [group.folded.parentID, named, folded])
        for shard in group.foldedAwayIDs.map(\.rawValue) where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM runs WHERE id = ?)",
                                                                                 arguments: [shard]) == true {
            try db.execute(sql: "UPDATE runs SET parent_id = ? WHERE parent_id = ?", arguments: [folded, shard])
            try db.execute(sql: "UPDATE sources SET import_run_id = ? WHERE import_run_id = ?", arguments: [folded, shard])
            if group.kind == .mix { try moveClips(from: shard, to: folded, db) }
            try db.execute(sql: "UPDATE OR REPLACE clip_scores SET run_id = ? WHERE run_id = ?", arguments: [folded, shard])
            try db.execute(sql: "UPDATE OR REPLACE score_targets SET run_id = ? WHERE run_id = ?", arguments: [folded, shard])
            try db.execute(sql: "UPDATE score_targets SET enhance_run_id = ? WHERE enhance_run_id = ?", arguments: [folded, shard])
            try db.execute(sql: "UPDATE OR REPLACE corpus_mix_runs SET mix_run_id = ? WHERE mix_run_id = ?", arguments: [folded, shard])
            try db.execute(sql: "UPDATE OR REPLACE artifacts SET run_id = ? WHERE run_id = ?", arguments: [folded, shard])
            try db.execute(sql: "DELETE FROM runs WHERE id = ?", arguments: [shard])
        }
        // Every row is in: the fold is the finished run the planner described.
        try db.execute(sql: "UPDATE runs SET status = 'finished', finished_at = ?, error = NULL WHERE id = ? AND status != 'finished'",
                       arguments: [group.folded.finishedAt, folded])
        try db.execute(sql: "DELETE FROM params WHERE run_id = ? AND key = ?", arguments: [folded, foldingKey])
    }

    /// Tables keyed by a catalogue clip id (`RUN/CLIP`) and the column holding it, parents first.
    private static let clipKeyedTables = [("clips", "id"), ("clip_noises", "clip_id"), ("clip_degradations", "clip_id"),
                                          ("clip_degradation_params", "clip_id")]

    /// Copies run `from`'s clips (and their rows) under run `to` with ids `to/CLIP`, re-points score
    /// rows naming them, then deletes the originals (their rows cascade).
    private static func moveClips(from: String, to: String, _ db: Database) throws {
        // Ids `from/…` form one key range: '/' (0x2F) sorts just before '0' (0x30).
        let low = from + "/", high = from + "0", length = from.count
        for (table, key) in clipKeyedTables {
            let names = try db.columns(in: table).map(\.name)
            let values = names.map { name -> String in
                if name == key { return "?3 || substr(\"\(name)\", ?4)" }
                if table == "clips" && name == "run_id" { return "?3" }
                return "\"\(name)\""
            }
            try db.execute(sql: """
                INSERT OR IGNORE INTO \(table) (\(names.map { "\"\($0)\"" }.joined(separator: ", ")))
                SELECT \(values.joined(separator: ", ")) FROM \(table) WHERE "\(key)" >= ?1 AND "\(key)" < ?2
                """, arguments: [low, high, to, length + 1])
        }
        try db.execute(sql: "UPDATE OR REPLACE clip_scores SET clip_id = ?3 || substr(clip_id, ?4) WHERE clip_id >= ?1 AND clip_id < ?2",
                       arguments: [low, high, to, length + 1])
        try db.execute(sql: "DELETE FROM clips WHERE run_id = ?", arguments: [from])
    }
}
