import Foundation
import SEKitSignal
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
        /// Sources used by clips of more than one split of one corpus (a leak between train and test).
        public var splitLeaks: [SplitLeak] = []
        /// How many source files were re-hashed.
        public var filesHashed = 0
        /// Folded runs (`catalog merge`) that are `finished` but hold another number of rows than
        /// their counts say (left by an interrupted merge of a SEKit that did not yet keep folds
        /// `running` until complete); nil when there are none (so the JSON of a sound catalogue is unchanged).
        public var incompleteFolds: [FoldProblem]?

        /// A folded run whose rows do not add up.
        public struct FoldProblem: Sendable, Codable, Equatable {
            public var runID: RunID
            public var kind: String
            /// `clips` (a mix's clip rows) or `scored clips` (a score run's clips with score rows).
            public var rows: String
            /// What the run's parameters count (`clips_written + clips_resumed`; `clips`).
            public var expected: Int
            /// What the catalogue holds.
            public var found: Int

            public var detail: String {
                "folded \(kind) run holds \(found) of its \(expected) \(rows): the catalog merge that folded it did not complete; "
                    + "run the same merge again to complete it"
            }
        }

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
            /// The corpus folder whose splits share the source (its mix run's `out`); nil for a mix run without one.
            public var corpus: String? = nil
        }

        /// True when nothing needs attention (abandoned runs that were just marked count as problems found).
        public var isClean: Bool {
            integrityProblems.isEmpty && missingFiles.isEmpty && changedFiles.isEmpty && abandonedRuns.isEmpty && splitLeaks.isEmpty
                && (incompleteFolds ?? []).isEmpty
        }
    }

    /// Checks the catalogue against the disk and itself.
    ///
    /// - Source files: existence; size and modification time, re-hashing the file when either differs
    ///   (or always, with `rehashAll`) to tell a changed file from a touched one.
    /// - Artifacts with a recorded hash: existence and hash.
    /// - Runs `running` whose process is gone on this host are marked `failed` unless `dryRun`.
    /// - Sources whose clips span several splits.
    /// - Folded runs whose rows do not add up to their counts (``CheckReport/FoldProblem``).
    public func check(rehashAll: Bool = false, dryRun: Bool = false) throws(CatalogError) -> CheckReport {
        var report = CheckReport()
        var folding: [RunID: (host: String, pid: Int)] = [:]
        var declared: (dangling: [String], files: [(table: String, path: String)]) = ([], [])
        let (sources, artifacts, integrity, foreignKeys, leaks, running): ([SourceRecord], [ArtifactRecord], [String], [String],
                                                                           [CheckReport.SplitLeak], [RunRecord]) = try read { db in
            declared = try Self.declaredChecks(db)
            let folds = try Self.incompleteFolds(db)
            report.incompleteFolds = folds.isEmpty ? nil : folds
            folding = try Self.foldingProcesses(db)
            let integrity = try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
            let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                "foreign key violation: \(row[0] as String? ?? "?") row \(row[1] as Int64? ?? -1) → \(row[2] as String? ?? "?")"
            }
            // A mix with `--split-sources speech` promises disjoint speech only (noise and RIRs are shared
            // by every split): its noise and RIR sources are not leaks.
            let sharedAcrossSplits = """
                EXISTS (SELECT 1 FROM params p WHERE p.run_id = clips.run_id AND p.key = 'split_sources' AND p.value_text = 'speech')
                """
            // A leak is a source in more than one split of one corpus (its folder, `out`, so the shards
            // of one corpus count together; a mix run without one is a corpus of its own): what the corpus
            // promised. Corpora mixed separately from the same sources (a single-split mix is `train`) are not.
            let leaks = try Row.fetchAll(db, sql: """
                WITH used(run_id, source_id, split) AS (
                    SELECT run_id, speech_source_id, split FROM clips WHERE speech_source_id IS NOT NULL
                    UNION ALL SELECT run_id, rir_source_id, split FROM clips WHERE rir_source_id IS NOT NULL AND NOT \(sharedAcrossSplits)
                    UNION ALL SELECT clips.run_id, clip_noises.source_id, clips.split
                        FROM clip_noises JOIN clips ON clips.id = clip_noises.clip_id
                        WHERE NOT \(sharedAcrossSplits)),
                keyed AS (
                    SELECT DISTINCT coalesce(o.value_text, u.run_id) AS corpus, o.value_text AS folder, u.source_id, u.split
                    FROM (SELECT DISTINCT run_id, source_id, split FROM used) u
                    LEFT JOIN params o ON o.run_id = u.run_id AND o.key = 'out')
                SELECT source_id, group_concat(split, ','), max(folder) FROM (SELECT * FROM keyed ORDER BY corpus, source_id, split)
                GROUP BY corpus, source_id HAVING count(*) > 1 ORDER BY source_id, corpus
                """).map { row in
                CheckReport.SplitLeak(sourceID: row[0], splits: (row[1] as String).split(separator: ",").map(String.init), corpus: row[2])
            }
            let running = try RunRecord.filter(RunRecord.Columns.status == RunStatus.running.rawValue).fetchAll(db)
            return (try SourceRecord.order(SourceRecord.Columns.id).fetchAll(db),
                    try ArtifactRecord.filter(Column("sha256") != nil).fetchAll(db), integrity, foreignKeys, leaks, running)
        }
        report.integrityProblems = integrity + foreignKeys + declared.dangling
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
        for file in declared.files where !manager.fileExists(atPath: file.path) {
            report.missingFiles.append(.init(table: file.table, id: file.path, path: file.path))
        }
        let host = ProcessInfo.processInfo.hostName
        // A fold under way belongs to its merging process.
        report.runningElsewhere = running.filter { (folding[$0.id]?.host ?? $0.host) != host }.map(\.id)
        report.abandonedRuns = try markAbandonedRuns(dryRun: dryRun).map(\.id)
        return report
    }

    /// The checks tables declare in ``CatalogTable/checks`` beyond the dedicated ones: columns naming
    /// runs without a foreign key whose run is gone (one problem per column), and the files a table
    /// names (distinct paths), whose existence the caller checks.
    package static func declaredChecks(_ db: Database) throws -> (dangling: [String], files: [(table: String, path: String)]) {
        var dangling: [String] = [], files: [(table: String, path: String)] = []
        for table in CatalogTable.all {
            for check in table.checks {
                switch check {
                case .runReference(let column):
                    let missing = try String.fetchAll(db, sql: """
                        SELECT DISTINCT "\(column)" FROM \(table.name)
                        WHERE "\(column)" IS NOT NULL AND "\(column)" NOT IN (SELECT id FROM runs) ORDER BY 1
                        """)
                    if let first = missing.first {
                        dangling.append("\(table.name).\(column) names \(missing.count) run(s) the catalogue does not hold (\(first)"
                                        + (missing.count > 1 ? ", ..." : "") + ")")
                    }
                case .missingFiles(let pathColumn):
                    files += try String.fetchAll(db, sql: "SELECT DISTINCT \"\(pathColumn)\" FROM \(table.name) ORDER BY 1")
                        .map { (table.name, $0) }
                case .sourceFiles, .artifactFiles, .runStates, .splitLeaks:
                    continue   // checked by check(rehashAll:dryRun:) itself
                }
            }
        }
        return (dangling, files)
    }

    /// The parameter a run folded from shard runs (`sekit catalog merge`) records their number under.
    package static let foldedShardsKey = "folded_shards"

    /// Finished folded runs (`folded_shards`) whose rows do not match their counts: a mix's clips
    /// against `clips_written + clips_resumed`, a score run's scored clips against `clips`.
    package static func incompleteFolds(_ db: Database) throws -> [CheckReport.FoldProblem] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.id, r.kind,
                CASE r.kind WHEN 'mix' THEN (SELECT count(*) FROM clips WHERE run_id = r.id)
                    ELSE (SELECT count(DISTINCT clip_id) FROM clip_scores WHERE run_id = r.id) END,
                CASE r.kind WHEN 'mix' THEN (SELECT sum(CAST(value_text AS INTEGER)) FROM params
                                             WHERE run_id = r.id AND key IN ('clips_written', 'clips_resumed'))
                    ELSE (SELECT CAST(value_text AS INTEGER) FROM params WHERE run_id = r.id AND key = 'clips') END
            FROM runs AS r
            WHERE r.status = 'finished' AND r.kind IN ('mix', 'score')
                AND EXISTS (SELECT 1 FROM params WHERE run_id = r.id AND key = ?)
            ORDER BY r.started_at, r.id
            """, arguments: [Self.foldedShardsKey])
        return rows.compactMap { row in
            let kind: String = row[1]
            guard let expected: Int = row[3], let found: Int = row[2], expected != found else { return nil }
            return CheckReport.FoldProblem(runID: row[0], kind: kind, rows: kind == "mix" ? "clips" : "scored clips",
                                           expected: expected, found: found)
        }
    }
}
