import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// What to do when a clip id is already in the catalogue.
    public enum ClipConflictPolicy: Sendable {
        /// Throw: a clip id must be recorded once.
        case fail
        /// Keep the existing row and skip the new one (resuming a run that recorded some clips already).
        case skipExisting
    }

    /// Records clips and their noises in one transaction: all are recorded or none.
    /// - Parameters:
    ///   - clips: the clips; their runs and sources must exist.
    ///   - noises: the noises added to those clips (`clip_noises` rows).
    ///   - degradations: the degradations of those clips and their parameters (`clip_degradations`,
    ///     `clip_degradation_params` rows; `ClipDegradationRecord.rows(clipID:degradations:)` (in SEKit's Mixing)).
    ///   - onConflict: what to do with clip ids already present.
    /// - Returns: how many clips were inserted.
    /// - Throws: ``CatalogError/database(path:reason:)`` naming the violated constraint.
    @discardableResult
    public func insertClips(_ clips: [ClipRecord], noises: [ClipNoiseRecord] = [],
                            degradations: (degradations: [ClipDegradationRecord], params: [ClipDegradationParamRecord]) = ([], []),
                            onConflict: ClipConflictPolicy = .fail) throws(CatalogError) -> Int {
        try write { db in
            var inserted = 0
            var skipped = Set<String>()
            for clip in clips {
                switch onConflict {
                case .fail:
                    try clip.insert(db)
                    inserted += 1
                case .skipExisting:
                    try clip.insert(db, onConflict: .ignore)
                    if db.changesCount == 1 { inserted += 1 } else { skipped.insert(clip.id) }
                }
            }
            for noise in noises where !skipped.contains(noise.clipID) {
                try noise.insert(db)
            }
            for degradation in degradations.degradations where !skipped.contains(degradation.clipID) {
                try degradation.insert(db)
            }
            for param in degradations.params where !skipped.contains(param.clipID) {
                try param.insert(db)
            }
            return inserted
        }
    }

    /// Records (or replaces) a file a run produced.
    public func recordArtifact(_ artifact: ArtifactRecord) throws(CatalogError) {
        try write { db in try artifact.upsert(db) }
    }

    /// Records (or replaces) a file a run produced, hashing it (SHA-256) and taking its size from disk.
    /// - Parameter recordedPath: the path to record when it differs from the file hashed (a file
    ///   recorded under its final name while it still has its temporary one, just before the rename).
    /// - Throws: ``CatalogError/file(path:reason:)`` when the file cannot be read.
    public func recordArtifact(run: RunID, fileAt fileURL: URL, kind: String, recordedPath: URL? = nil) throws(CatalogError) {
        let path = (recordedPath ?? fileURL).standardizedFileURL.path
        let digest: String
        let bytes: Int
        do {
            digest = try SHA256.hex(ofFileAt: fileURL)
            bytes = (try FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw .file(path: fileURL.path, reason: "cannot hash artifact: \(error.localizedDescription)")
        }
        try recordArtifact(ArtifactRecord(runID: run, path: path, kind: kind, sha256: digest, bytes: bytes))
    }

    /// Records (or replaces) per-clip scores in one transaction.
    public func insertClipScores(_ scores: [ClipScoreRecord]) throws(CatalogError) {
        try write { db in for score in scores { try score.upsert(db) } }
    }

    /// Records (or replaces) run-level aggregates in one transaction.
    public func insertRunMetrics(_ metrics: [RunMetricRecord]) throws(CatalogError) {
        try write { db in for metric in metrics { try metric.upsert(db) } }
    }

    /// Sources, optionally of one kind and/or corpus, ordered by id.
    public func sources(kind: SourceKind? = nil, corpus: String? = nil) throws(CatalogError) -> [SourceRecord] {
        try read { db in
            var request = SourceRecord.all()
            if let kind { request = request.filter(SourceRecord.Columns.kind == kind.rawValue) }
            if let corpus { request = request.filter(SourceRecord.Columns.corpus == corpus) }
            return try request.order(SourceRecord.Columns.id).fetchAll(db)
        }
    }

    /// One source by id, or nil.
    public func source(_ id: String) throws(CatalogError) -> SourceRecord? {
        try read { db in try SourceRecord.fetchOne(db, key: id) }
    }

    /// Clips matching a filter expression (see ``CatalogFilter``), ordered by run and clip index.
    public func clips(filter: String? = nil, limit: Int? = nil) throws(CatalogError) -> [ClipRecord] {
        let compiled = try CatalogFilter.compile(filter, context: .clips)
        return try read { db in
            var sql = "SELECT clips.* FROM clips WHERE \(compiled.sql) ORDER BY run_id, clip_index"
            if let limit { sql += " LIMIT \(max(0, limit))" }
            return try ClipRecord.fetchAll(db, sql: sql, arguments: compiled.arguments)
        }
    }

    /// Noises of one clip, by position.
    public func noises(ofClip clipID: String) throws(CatalogError) -> [ClipNoiseRecord] {
        try read { db in
            try ClipNoiseRecord.filter(ClipNoiseRecord.Columns.clipID == clipID).order(Column("position")).fetchAll(db)
        }
    }

    /// Per-clip scores of a run, ordered by clip and metric.
    public func clipScores(run: RunID) throws(CatalogError) -> [ClipScoreRecord] {
        try read { db in
            try ClipScoreRecord.filter(ClipScoreRecord.Columns.runID == run.rawValue)
                .order(ClipScoreRecord.Columns.clipID, ClipScoreRecord.Columns.metric).fetchAll(db)
        }
    }

    /// Aggregates of a run, ordered by metric and subset.
    public func runMetrics(run: RunID) throws(CatalogError) -> [RunMetricRecord] {
        try read { db in
            try RunMetricRecord.filter(RunMetricRecord.Columns.runID == run.rawValue)
                .order(RunMetricRecord.Columns.metric, RunMetricRecord.Columns.subset).fetchAll(db)
        }
    }

    /// Parameters of a run, ordered by key.
    public func params(of run: RunID) throws(CatalogError) -> [ParamRecord] {
        try read { db in
            try ParamRecord.filter(ParamRecord.Columns.runID == run.rawValue).order(ParamRecord.Columns.key).fetchAll(db)
        }
    }
}
