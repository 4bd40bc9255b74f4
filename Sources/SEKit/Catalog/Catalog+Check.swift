import Foundation
import GRDB

extension Catalog {
    /// The consistency report of `sekit catalog check`.
    public struct CheckReport: Sendable, Codable {
        /// Problems SQLite finds (`PRAGMA quick_check`, `PRAGMA foreign_key_check`); empty when sound.
        public var integrityProblems: [String] = []
        /// Sources and artifacts whose file is gone.
        public var missingFiles: [FileProblem] = []
        /// Sources and artifacts whose bytes changed since recorded (hash differs).
        public var changedFiles: [FileProblem] = []
        /// Runs left `running` by a process that is gone on this host: marked failed (or, with
        /// `dryRun`, that would be).
        public var abandonedRuns: [RunID] = []
        /// Runs `running` on another host, which this machine cannot verify.
        public var runningElsewhere: [RunID] = []
        /// Sources used by clips of more than one split (a leak between train and test).
        public var splitLeaks: [SplitLeak] = []
        /// How many source files were re-hashed.
        public var filesHashed = 0

        public struct FileProblem: Sendable, Codable, Equatable {
            /// `source` or `artifact`.
            public var table: String
            /// Source id, or artifact run id.
            public var id: String
            public var path: String
        }

        public struct SplitLeak: Sendable, Codable, Equatable {
            public var sourceID: String
            public var splits: [String]
        }

        /// True when nothing needs attention (abandoned runs that were just marked count as problems found).
        public var isClean: Bool {
            integrityProblems.isEmpty && missingFiles.isEmpty && changedFiles.isEmpty && abandonedRuns.isEmpty && splitLeaks.isEmpty
        }
    }

    /// Checks the catalogue against the disk and itself.
    ///
    /// - Source files: existence; size and modification time, re-hashing the file when either differs
    ///   (or always, with `rehashAll`) to tell a changed file from a touched one.
    /// - Artifacts with a recorded hash: existence and hash.
    /// - Runs `running` whose process is gone on this host are marked `failed` unless `dryRun`.
    /// - Sources whose clips span several splits.
    public func check(rehashAll: Bool = false, dryRun: Bool = false) throws(CatalogError) -> CheckReport {
        var report = CheckReport()
        let (sources, artifacts, integrity, foreignKeys, leaks, running): ([SourceRecord], [ArtifactRecord], [String], [String], [CheckReport.SplitLeak], [RunRecord]) = try read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
            let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                "foreign key violation: \(row[0] as String? ?? "?") row \(row[1] as Int64? ?? -1) → \(row[2] as String? ?? "?")"
            }
            let leaks = try Row.fetchAll(db, sql: """
                SELECT source_id, group_concat(split, ',') FROM (
                    SELECT DISTINCT source_id, split FROM (
                        SELECT speech_source_id AS source_id, split FROM clips WHERE speech_source_id IS NOT NULL
                        UNION ALL SELECT rir_source_id, split FROM clips WHERE rir_source_id IS NOT NULL
                        UNION ALL SELECT clip_noises.source_id, clips.split FROM clip_noises JOIN clips ON clips.id = clip_noises.clip_id)
                    ORDER BY source_id, split)
                GROUP BY source_id HAVING count(*) > 1 ORDER BY source_id
                """).map { row in
                CheckReport.SplitLeak(sourceID: row[0], splits: (row[1] as String).split(separator: ",").map(String.init))
            }
            let running = try RunRecord.filter(RunRecord.Columns.status == RunStatus.running.rawValue).fetchAll(db)
            return (try SourceRecord.order(SourceRecord.Columns.id).fetchAll(db),
                    try ArtifactRecord.filter(Column("sha256") != nil).fetchAll(db), integrity, foreignKeys, leaks, running)
        }
        report.integrityProblems = integrity + foreignKeys
        report.splitLeaks = leaks

        let manager = FileManager.default
        for source in sources {
            guard let attributes = try? manager.attributesOfItem(atPath: source.path) else {
                report.missingFiles.append(.init(table: "source", id: source.id, path: source.path))
                continue
            }
            let bytes = (attributes[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes[.modificationDate] as? Date) ?? .distantPast
            let touched = bytes != source.bytes || abs(modified.timeIntervalSince(source.modifiedAt)) > 0.001
            guard rehashAll || touched else { continue }
            report.filesHashed += 1
            if bytes != source.bytes || (try? SHA256.hex(ofFileAt: URL(fileURLWithPath: source.path))) != source.sha256 {
                report.changedFiles.append(.init(table: "source", id: source.id, path: source.path))
            }
        }
        for artifact in artifacts {
            guard manager.fileExists(atPath: artifact.path) else {
                report.missingFiles.append(.init(table: "artifact", id: artifact.runID.rawValue, path: artifact.path))
                continue
            }
            if (try? SHA256.hex(ofFileAt: URL(fileURLWithPath: artifact.path))) != artifact.sha256 {
                report.changedFiles.append(.init(table: "artifact", id: artifact.runID.rawValue, path: artifact.path))
            }
        }
        let host = ProcessInfo.processInfo.hostName
        report.runningElsewhere = running.filter { $0.host != host }.map(\.id)
        report.abandonedRuns = try markAbandonedRuns(dryRun: dryRun).map(\.id)
        return report
    }
}
