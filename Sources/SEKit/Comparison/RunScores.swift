import Foundation
import GRDB

/// The per-clip scores of one `score` run, as columns: one entry per clip the run recorded, with
/// the clip's requested SNR and split when the clip is in the catalogue (a scored mix corpus).
public struct RunScores: Sendable {
    public var run: RunRecord
    /// Clip ids in the catalogue's order (`MIXRUN/CLIP` for a catalogued corpus, else the pair's id).
    public var clipIDs: [String]
    /// Metric → value per clip (nil where the run has no value: a failed clip or metric, or a
    /// metric not scored for that clip).
    public var values: [String: [Double?]]
    /// Metric → value of the noisy input per clip, where the run scored it.
    public var noisyValues: [String: [Double?]]
    /// Requested SNR (dB) per clip; nil for clips not in the catalogue.
    public var snrDB: [Double?]
    /// Split per clip; nil for clips not in the catalogue.
    public var split: [String?]
    /// Metrics with at least one row, in the order the run first recorded them.
    public var metrics: [String]

    /// Position of each clip id.
    public var indexOfClip: [String: Int] {
        Dictionary(uniqueKeysWithValues: clipIDs.enumerated().map { ($1, $0) })
    }
}

extension Catalog {
    /// Loads every clip score of `run` (one query, joined with `clips` for SNR and split).
    /// - Throws: ``CatalogError/invalidParameter(name:value:reason:)`` when `run` is not a score run.
    public func scores(of run: RunRecord) throws(CatalogError) -> RunScores {
        guard run.kind == .score else {
            throw .invalidParameter(name: "run", value: run.id.rawValue, reason: "is a \(run.kind.rawValue) run; compare score runs")
        }
        return try read { db in
            var scores = RunScores(run: run, clipIDs: [], values: [:], noisyValues: [:], snrDB: [], split: [], metrics: [])
            var index: [String: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT s.clip_id, s.metric, s.value, s.noisy_value, c.snr_requested_db, c.split
                FROM clip_scores s LEFT JOIN clips c ON c.id = s.clip_id
                WHERE s.run_id = ? ORDER BY s.rowid
                """, arguments: [run.id])
            while let row = try rows.next() {
                let clipID: String = row[0]
                let metric: String = row[1]
                let clip: Int
                if let known = index[clipID] {
                    clip = known
                } else {
                    clip = scores.clipIDs.count
                    index[clipID] = clip
                    scores.clipIDs.append(clipID)
                    scores.snrDB.append(row[4])
                    scores.split.append(row[5])
                    for key in scores.metrics {
                        scores.values[key]!.append(nil)
                        scores.noisyValues[key]!.append(nil)
                    }
                }
                if scores.values[metric] == nil {
                    scores.metrics.append(metric)
                    scores.values[metric] = Array(repeating: nil, count: scores.clipIDs.count)
                    scores.noisyValues[metric] = Array(repeating: nil, count: scores.clipIDs.count)
                }
                scores.values[metric]![clip] = row[2]
                scores.noisyValues[metric]![clip] = row[3]
            }
            return scores
        }
    }
}
