import Foundation
import GRDB

extension Catalog {
    /// Records the corpus `identity` (found in `folder`) as made by `mixRuns` (one per shard, wherever
    /// they were recorded): a corpus already recorded keeps its row, with `folder` as where it was
    /// last seen and `mixRuns` added. Returns the corpus's row.
    @discardableResult
    public func recordCorpus(_ identity: CorpusIdentity, folder: URL, mixRuns: [RunID]) throws(CatalogError) -> CorpusRecord {
        try write { db in
            try Self.recordCorpus(db, identity: identity.identity, name: folder.standardizedFileURL.lastPathComponent,
                                  path: folder.standardizedFileURL.path, specSHA256: identity.specSHA256,
                                  mixRuns: mixRuns.map(\.rawValue))
        }
    }

    /// The corpora the mix run `run` made (its shard among them), latest recorded first.
    public func corpora(ofMixRun run: RunID) throws(CatalogError) -> [CorpusRecord] {
        try read { db in try Self.corpora(db, ofMixRuns: [run.rawValue]) }
    }

    /// The corpus of identity `identity`, if recorded.
    public func corpus(identity: String) throws(CatalogError) -> CorpusRecord? {
        try read { db in try CorpusRecord.fetchOne(db, key: identity) }
    }

    /// The mix runs recorded as making `corpus`, in id order.
    public func mixRuns(ofCorpus corpus: String) throws(CatalogError) -> [RunID] {
        try read { db in try Self.mixRuns(db, ofCorpus: corpus).map(RunID.init) }
    }

    /// The corpus `run` was made from: the latest corpus of the first mix run up its parent chain
    /// (an enhance or synthesize run's), if recorded.
    public func corpus(madeFrom run: RunID) throws(CatalogError) -> CorpusRecord? {
        guard let record = try? self.run(run.rawValue),
              let mix = try lineage(of: record).first(where: { $0.kind == .mix }) else { return nil }
        return try corpora(ofMixRun: mix.id).first
    }

    /// Records what the score run `target.runID` scored (replacing what it recorded before).
    public func recordScoreTarget(_ target: ScoreTargetRecord) throws(CatalogError) {
        try write { db in
            try db.execute(sql: "DELETE FROM score_targets WHERE run_id = ?", arguments: [target.runID])
            try target.insert(db)
        }
    }

    /// What the score run `run` scored, if recorded (every score run since schema `v7-corpora`).
    public func scoreTarget(of run: RunID) throws(CatalogError) -> ScoreTargetRecord? {
        try read { db in try ScoreTargetRecord.fetchOne(db, key: run.rawValue) }
    }

    /// Refuses to record a run from the corpus in `folder` (identity `found`) when this catalogue
    /// recorded one of its mix runs (`mixRuns`, those of the folder's own records) making a corpus whose
    /// `mix.json` was another: the folder's `mix.json` was edited (or replaced) since.
    /// - Throws: ``CatalogError/file(path:reason:)`` naming `mix.json`, the mix run and both hashes.
    public func checkCorpusUnchanged(folder: URL, found: CorpusIdentity, mixRuns: [RunID]) throws(CatalogError) {
        for run in mixRuns {
            let recorded = try corpora(ofMixRun: run).compactMap(\.specSHA256)
            guard !recorded.isEmpty, !recorded.contains(found.specSHA256) else { continue }
            throw .file(path: folder.appendingPathComponent(CorpusIdentity.specFileName).path, reason: """
                changed since mix run \(run) recorded this corpus in \(url.path) (mix.json SHA-256 then \
                \(recorded[0].prefix(12))…, now \(found.specSHA256.prefix(12))…): its clips no longer match what the catalogue \
                says of them; restore mix.json, or mix the corpus again (sekit mix --overwrite)
                """)
        }
    }
}

extension Catalog {
    /// Inserts or updates a corpus row and its mix runs (see ``recordCorpus(_:folder:mixRuns:)``).
    package static func recordCorpus(_ db: Database, identity: String, name: String, path: String, specSHA256: String?,
                                     mixRuns: [String]) throws -> CorpusRecord {
        // Plain SQL: GRDB's save and upsert read `rowid`, which these WITHOUT ROWID tables lack.
        try db.execute(sql: """
            INSERT INTO corpora (identity, name, path, spec_sha256, recorded_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (identity) DO UPDATE SET path = excluded.path, spec_sha256 = coalesce(spec_sha256, excluded.spec_sha256)
            """, arguments: [identity, name.isEmpty ? "corpus" : name, path, specSHA256, Date()])
        for run in Set(mixRuns).sorted() {
            try db.execute(sql: "INSERT OR IGNORE INTO corpus_mix_runs (corpus, mix_run_id) VALUES (?, ?)", arguments: [identity, run])
        }
        return try CorpusRecord.fetchOne(db, key: identity)!
    }

    /// The corpora any of `runs` made, latest recorded first.
    package static func corpora(_ db: Database, ofMixRuns runs: [String]) throws -> [CorpusRecord] {
        guard !runs.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: runs.count).joined(separator: ",")
        return try CorpusRecord.fetchAll(db, sql: """
            SELECT c.* FROM corpora c WHERE c.identity IN (SELECT corpus FROM corpus_mix_runs WHERE mix_run_id IN (\(marks)))
            ORDER BY c.recorded_at DESC, c.identity
            """, arguments: StatementArguments(runs))
    }

    package static func mixRuns(_ db: Database, ofCorpus corpus: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT mix_run_id FROM corpus_mix_runs WHERE corpus = ? ORDER BY mix_run_id", arguments: [corpus])
    }
}
