import Foundation
import GRDB

extension Catalog {
    /// Counts and hours of `sekit catalog stats`.
    public struct Stats: Sendable, Codable {
        public struct SourceGroup: Sendable, Codable, Equatable {
            public var corpus: String, kind: String, files: Int, hours: Double, speakers: Int
        }
        public struct ClipGroup: Sendable, Codable, Equatable {
            public var split: String, clips: Int, hours: Double
        }
        public struct RunGroup: Sendable, Codable, Equatable {
            public var kind: String, status: String, runs: Int
        }
        public struct DegradationGroup: Sendable, Codable, Equatable {
            /// `mp3`, `packet-loss`, ... (``ClipDegradationRecord/kind``).
            public var kind: String, clips: Int
        }
        public struct SNRBin: Sendable, Codable, Equatable {
            /// Bin `[lowerDB, lowerDB + width)`.
            public var lowerDB: Double, clips: Int
        }
        public var sources: [SourceGroup]
        public var clips: [ClipGroup]
        public var runs: [RunGroup]
        /// Histogram of realised SNR (requested when no realised value was recorded).
        public var snrHistogram: [SNRBin]
        public var snrBinWidthDB: Double
        public var clipScores: Int
        /// Clips per degradation kind (a clip with several counts under each), by kind; empty when no
        /// clip was degraded.
        public var degradations: [DegradationGroup] = []
    }

    /// Counts and hours per corpus and kind, per split, runs per kind and status, an SNR histogram, and
    /// clips per degradation kind.
    /// - Parameter snrBinWidthDB: histogram bin width in dB (> 0).
    public func stats(snrBinWidthDB: Double = 5) throws(CatalogError) -> Stats {
        guard snrBinWidthDB > 0, snrBinWidthDB.isFinite else {
            throw .invalidParameter(name: "snr-bin-db", value: "\(snrBinWidthDB)", reason: "must be a positive number of dB")
        }
        return try read { db in
            Stats(
                sources: try Row.fetchAll(db, sql: """
                    SELECT corpus, kind, count(*), coalesce(sum(duration_seconds), 0) / 3600.0, count(DISTINCT speaker)
                    FROM sources GROUP BY corpus, kind ORDER BY corpus, kind
                    """).map { Stats.SourceGroup(corpus: $0[0], kind: $0[1], files: $0[2], hours: $0[3], speakers: $0[4]) },
                clips: try Row.fetchAll(db, sql: """
                    SELECT split, count(*), coalesce(sum(duration_seconds), 0) / 3600.0 FROM clips GROUP BY split ORDER BY split
                    """).map { Stats.ClipGroup(split: $0[0], clips: $0[1], hours: $0[2]) },
                runs: try Row.fetchAll(db, sql: "SELECT kind, status, count(*) FROM runs GROUP BY kind, status ORDER BY kind, status")
                    .map { Stats.RunGroup(kind: $0[0], status: $0[1], runs: $0[2]) },
                snrHistogram: try Row.fetchAll(db, sql: """
                    SELECT CAST(q AS INTEGER) - (q < CAST(q AS INTEGER)) AS bin, count(*)   -- floor(q), without the math extension
                    FROM (SELECT coalesce(snr_realised_db, snr_requested_db) / ? AS q FROM clips)
                    WHERE q IS NOT NULL GROUP BY bin ORDER BY bin
                    """, arguments: [snrBinWidthDB]).map { Stats.SNRBin(lowerDB: Double($0[0] as Int64) * snrBinWidthDB, clips: $0[1]) },
                snrBinWidthDB: snrBinWidthDB,
                clipScores: try Int.fetchOne(db, sql: "SELECT count(*) FROM clip_scores") ?? 0,
                degradations: try Row.fetchAll(db,
                        sql: "SELECT kind, count(DISTINCT clip_id) FROM clip_degradations GROUP BY kind ORDER BY kind")
                    .map { Stats.DegradationGroup(kind: $0[0], clips: $0[1]) })
        }
    }
}
