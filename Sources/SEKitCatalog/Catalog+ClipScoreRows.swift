import Foundation
import GRDB

extension Catalog {
    /// One stored per-clip score with what the catalogue knows of its clip (`runs diff`'s input).
    package struct ClipScoreRow: Sendable {
        package var clipID: String
        package var metric: String
        package var value: Double?
        package var noisyValue: Double?
        /// The clip's requested SNR and split; nil when the clip is not catalogued (or has none).
        package var snrRequestedDB: Double?
        package var split: String?
        /// Whether `clips` holds the clip (scores of an uncatalogued folder name no clip row).
        package var isCatalogued: Bool
    }

    /// Calls `body` with every per-clip score of `run`, in (clip id, metric) order: one pass over the
    /// `clip_scores` primary key, joined with `clips` for SNR and split.
    package func forEachClipScore(of run: RunID, _ body: (ClipScoreRow) -> Void) throws(CatalogError) {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT s.clip_id, s.metric, s.value, s.noisy_value, c.snr_requested_db, c.split, c.id IS NOT NULL
                FROM clip_scores s LEFT JOIN clips c ON c.id = s.clip_id
                WHERE s.run_id = ? ORDER BY s.clip_id, s.metric
                """, arguments: [run])
            while let row = try rows.next() {
                body(ClipScoreRow(clipID: row[0], metric: row[1], value: row[2], noisyValue: row[3],
                                  snrRequestedDB: row[4], split: row[5], isCatalogued: row[6]))
            }
        }
    }

    /// The RIR (its source's relative path) and the mix run's reverberation target (`dry` unless its
    /// `target` param says otherwise) of every clip `run` scored that was convolved with a RIR.
    package func reverberationOfClipsScored(by run: RunID) throws(CatalogError) -> [String: (rirPath: String, target: String)] {
        try read { db in
            var found: [String: (rirPath: String, target: String)] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT c.id, coalesce(s.relative_path, c.rir_source_id), coalesce(p.value_text, 'dry') FROM clips c
                LEFT JOIN sources s ON s.id = c.rir_source_id
                LEFT JOIN params p ON p.run_id = c.run_id AND p.key = 'target'
                WHERE c.rir_source_id IS NOT NULL AND c.id IN (SELECT clip_id FROM clip_scores WHERE run_id = ?)
                """, arguments: [run])
            while let row = try rows.next() { found[row[0]] = (row[1], row[2]) }
            return found
        }
    }

    /// The degradation kinds (`clip_degradations.kind`, in position order) of every clip `run`
    /// scored that has any: clip id → kinds (one pass over the table's index).
    package func degradationKindsOfClipsScored(by run: RunID) throws(CatalogError) -> [String: [String]] {
        try read { db in
            var kinds: [String: [String]] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT d.clip_id, d.kind FROM clip_degradations d
                WHERE d.clip_id IN (SELECT clip_id FROM clip_scores WHERE run_id = ?) ORDER BY d.clip_id, d.position
                """, arguments: [run])
            while let row = try rows.next() { kinds[row[0], default: []].append(row[1]) }
            return kinds
        }
    }
}
