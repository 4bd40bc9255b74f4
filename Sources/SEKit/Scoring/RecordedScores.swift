import Foundation
import GRDB

/// A score run's per-clip results read back from the catalogue, in the order the run scored them
/// (corpus clip index; clip id for folders), so its aggregates can be recomputed exactly as
/// `sekit score` computed them (after `catalog merge` folds shard runs) and its per-clip CSV
/// written again (`sekit score --from-run`).
///
/// From each `clip_scores` row: a value is the enhanced signal's, `noisy_value` the noisy input's,
/// and an error is the enhanced value's reason (no value; followed by `; noisy input: reason` when
/// the noisy value failed too) or, prefixed `noisy input: `, the noisy value's. A clip whose rows all have neither value and one same reason is a clip that could not
/// be scored at all (`ClipScores.error`). Split, requested SNR and degradation kinds come from the
/// clip's row in `clips` when the scored corpus is catalogued.
public enum RecordedScores {
    /// The run's metrics (its `metrics` parameter, in order) and per-clip scores.
    public static func load(_ db: Database, run: RunID) throws -> (metrics: [Metric], clips: [ClipScores]) {
        let params = Dictionary(try Row.fetchAll(db, sql: "SELECT key, value_text FROM params WHERE run_id = ?", arguments: [run])
            .map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { a, _ in a })
        let metrics = (params["metrics"] ?? "").split(separator: ",").compactMap { Metric(rawValue: String($0)) }
        let degraded = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM clip_scores s JOIN clip_degradations d ON d.clip_id = s.clip_id WHERE s.run_id = ?)
            """, arguments: [run]) ?? false
        let rows = try Row.fetchCursor(db, sql: """
            SELECT s.clip_id, s.metric, s.value, s.noisy_value, s.error, c.clip_index, c.split, c.snr_requested_db, c.run_id,
                   (SELECT group_concat(kind, ',') FROM (SELECT kind FROM clip_degradations WHERE clip_id = s.clip_id ORDER BY position)),
                   c.clean_path, c.noisy_path
            FROM clip_scores s LEFT JOIN clips c ON c.id = s.clip_id
            WHERE s.run_id = ?
            ORDER BY c.clip_index IS NULL, c.clip_index, s.clip_id
            """, arguments: [run])
        var clips: [ClipScores] = []
        var rowsOfClip: [(metric: Metric, value: Double?, noisy: Double?, error: String?)] = []
        var currentID: String?
        func close() {
            guard !clips.isEmpty else { return }
            let reasons = Set(rowsOfClip.map(\.error))
            if rowsOfClip.count == metrics.count, rowsOfClip.allSatisfy({ $0.value == nil && $0.noisy == nil }),
               reasons.count == 1, let reason = reasons.first ?? nil {
                clips[clips.count - 1].error = reason
                clips[clips.count - 1].metricErrors = [:]
                clips[clips.count - 1].noisyMetricErrors = [:]
            }
            rowsOfClip = []
        }
        while let row = try rows.next() {
            let clipID: String = row[0]
            if clipID != currentID {
                close()
                currentID = clipID
                let mixRun: String? = row[8]
                let kinds: String? = row[9]
                var pair = ScorePair(clipID: mixRun.map { String(clipID.dropFirst($0.count + 1)) } ?? clipID,
                                     reference: nil, enhanced: nil, noisy: nil, split: row[6], snrDB: row[7])
                locate(&pair, params: params, cleanPath: row[10], noisyPath: row[11])
                pair.corpusIndex = row[5]
                pair.degradations = degraded ? (kinds.map { $0.split(separator: ",").map(String.init) } ?? []) : nil
                clips.append(ClipScores(pair: pair))
            }
            guard let metric = Metric(rawValue: row[1]) else { continue }
            let value: Double? = row[2], noisy: Double? = row[3], error: String? = row[4]
            rowsOfClip.append((metric, value, noisy, error))
            var clip = clips[clips.count - 1]
            if let value { clip.enhanced[metric] = value }
            if let noisy { clip.noisy[metric] = noisy }
            if let error {
                if value != nil {
                    clip.noisyMetricErrors[metric] = error.hasPrefix(noisyPrefix) ? String(error.dropFirst(noisyPrefix.count)) : error
                } else if let both = error.range(of: "; " + noisyPrefix, options: .backwards) {
                    clip.metricErrors[metric] = String(error[..<both.lowerBound])
                    clip.noisyMetricErrors[metric] = String(error[both.upperBound...])
                } else {
                    clip.metricErrors[metric] = error
                }
            }
            clips[clips.count - 1] = clip
        }
        close()
        return (metrics, clips)
    }

    /// The files a recorded clip was scored from, as `sekit score` paired them (``ScorePairing``):
    /// through the corpus's stems, or by relative path in the run's folders.
    private static func locate(_ pair: inout ScorePair, params: [String: String], cleanPath: String?, noisyPath: String?) {
        let enhanced = params["enhanced"].map { URL(fileURLWithPath: $0) }
        if params["corpus"] != nil, let cleanPath, let noisyPath {
            let noisy = URL(fileURLWithPath: noisyPath)
            pair.reference = URL(fileURLWithPath: cleanPath)
            pair.noisy = enhanced == nil ? nil : noisy
            pair.enhanced = noisy
            if let enhanced {
                let corpus = URL(fileURLWithPath: params["corpus"]!)
                let byID = enhanced.appendingPathComponent(pair.clipID + ".wav")
                let byPath = enhanced.appendingPathComponent(String(noisyPath.dropFirst(corpus.path.count + 1)))
                pair.enhanced = FileManager.default.fileExists(atPath: byID.path) || !FileManager.default.fileExists(atPath: byPath.path) ? byID : byPath
            }
        } else if let enhanced {
            pair.enhanced = enhanced.appendingPathComponent(pair.clipID)
            pair.reference = params["reference"].map { URL(fileURLWithPath: $0).appendingPathComponent(pair.clipID) }
            if let noisy = params["noisy"].map({ URL(fileURLWithPath: $0).appendingPathComponent(pair.clipID) }),
               FileManager.default.fileExists(atPath: noisy.path) {
                pair.noisy = noisy
            }
        }
    }

    /// A recorded score run read back: what `sekit score --from-run` prints.
    public struct Run: Sendable {
        public var record: RunRecord
        /// The checkpoint scored (the run's `checkpoint` parameter, else its name).
        public var checkpoint: String
        public var metrics: [Metric]
        /// Per-clip scores in scoring order (clip ids as `sekit score` names them, without the mix run).
        public var clips: [ClipScores]
        /// The aggregates, recomputed from `clips` (equal to the recorded `run_metrics`).
        public var summary: [ScoreAggregate]
    }

    /// The score run `reference` (an id or unique id prefix) of `catalog`, read back.
    /// - Throws: ``CatalogError/unknownRun(path:id:reason:)`` when it is not a score run.
    public static func run(_ reference: String, in catalog: Catalog) throws(CatalogError) -> Run {
        let record = try catalog.run(reference)
        guard record.kind == .score else {
            throw .unknownRun(path: catalog.url.path, id: record.id.rawValue, reason: "is a \(record.kind.rawValue) run, not a score run")
        }
        let (metrics, clips, checkpoint) = try catalog.read { db in
            let (metrics, clips) = try load(db, run: record.id)
            let checkpoint = try String.fetchOne(db, sql: "SELECT value_text FROM params WHERE run_id = ? AND key = 'checkpoint'", arguments: [record.id])
            return (metrics, clips, checkpoint ?? record.name)
        }
        return Run(record: record, checkpoint: checkpoint, metrics: metrics, clips: clips,
                   summary: ScoreSummary.aggregate(clips, metrics: metrics))
    }

    /// The prefix of a noisy input's reason in `clip_scores.error` (``ScoreCatalogRecorder``).
    static let noisyPrefix = "noisy input: "

    /// Recomputes the run's `run_metrics` from its `clip_scores` (``ScoreSummary/aggregate(_:metrics:)``
    /// over the clips in scoring order), replacing the stored ones.
    static func recomputeRunMetrics(_ db: Database, run: RunID) throws {
        let (metrics, clips) = try load(db, run: run)
        try db.execute(sql: "DELETE FROM run_metrics WHERE run_id = ?", arguments: [run])
        for record in ScoreCatalogRecorder.runMetricRecords(ScoreSummary.aggregate(clips, metrics: metrics), run: run) {
            try record.insert(db)
        }
    }
}
