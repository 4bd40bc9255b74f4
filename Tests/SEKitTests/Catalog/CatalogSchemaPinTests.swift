import Foundation
import GRDB
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Pins shipped migrations: a migration is never modified once it has shipped, so the schema it
/// creates is frozen here, and every record type's `Columns` must name every column of its table.
@Suite struct CatalogSchemaPinTests {
    /// SHA-256 of ``v1Schema(_:)`` for `v1-catalog`, taken from a catalogue created before
    /// migration v1 was turned into literal SQL. Never change it: change the schema in a new migration.
    static let v1SchemaSHA256 = "89fd6762b1f92dbe4557c84b7a31fb23500843dd9d47d5ca2aa0dc6b21cdd677"

    /// `type|name|tbl_name|sql` of every schema object after applying migrations up to `identifier`, by name.
    static func schemaText(upTo identifier: String) throws -> String {
        let queue = try DatabaseQueue()
        try CatalogSchema.migrator.migrate(queue, upTo: identifier)
        return try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT type || '|' || name || '|' || tbl_name || '|' || coalesce(sql, '') FROM sqlite_master
                WHERE name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' ORDER BY name
                """).joined(separator: "\n")
        }
    }

    /// SHA-256 of the `sekit_v1_*` views (`type|name|tbl_name|sql`, by name) that `v6-python-views`
    /// creates: the interface of the Python package and other readers. Never change it: a view of
    /// other columns is a `v2` view in a new migration.
    static let pythonViewsV1SHA256 = "3ab93c3e12e26a6b36b542e32cbedbc2aebaf9e39c68e6b9348fe56e22405f33"

    @Test func thePythonViewsOfVersion1AreFrozen() throws {
        let queue = try DatabaseQueue()
        try CatalogSchema.migrator.migrate(queue, upTo: "v6-python-views")
        let views = try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT type || '|' || name || '|' || tbl_name || '|' || coalesce(sql, '') FROM sqlite_master
                WHERE type = 'view' ORDER BY name
                """)
        }
        #expect(views.count == 7)
        let text = views.joined(separator: "\n")
        let digest = SHA256.hex(of: Data(text.utf8))
        #expect(digest == Self.pythonViewsV1SHA256, "the sekit_v1_* views changed (shipped views must not change): \(digest)\n\(text)")
    }

    /// SHA-256 of what `v7-corpora` adds to the schema (`type|name|tbl_name|sql` of the objects v6
    /// lacks, by name): its tables, indexes and three views. Never change it.
    static let corporaSchemaSHA256 = "af1c43dab4c78972a28e142788a7fecaffe27fe29831ac6d933acb1a019355b2"

    @Test func theCorporaMigrationIsFrozen() throws {
        func objects(upTo identifier: String) throws -> [String: String] {
            let queue = try DatabaseQueue()
            try CatalogSchema.migrator.migrate(queue, upTo: identifier)
            return try queue.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                    SELECT name, type || '|' || name || '|' || tbl_name || '|' || coalesce(sql, '') AS text FROM sqlite_master
                    WHERE name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'
                    """).map { (row: Row) -> (String, String) in (row["name"], row["text"]) })
            }
        }
        let before = try objects(upTo: "v6-python-views")
        let added = try objects(upTo: "v7-corpora").filter { before[$0.key] == nil }.sorted { $0.key < $1.key }.map(\.value)
        #expect(added.count == 8, "\(added)")
        let text = added.joined(separator: "\n")
        let digest = SHA256.hex(of: Data(text.utf8))
        #expect(digest == Self.corporaSchemaSHA256, "migration v7-corpora changed (shipped: must not change): \(digest)\n\(text)")
    }

    @Test func version1IsFrozen() throws {
        let text = try Self.schemaText(upTo: "v1-catalog")
        let digest = SHA256.hex(of: Data(text.utf8))
        #expect(digest == Self.v1SchemaSHA256, "migration v1-catalog changed (a shipped migration must not change):\n\(text)")
    }

    /// Every ``RunKind`` is accepted by the `runs.kind` CHECK of the current schema, and nothing else is.
    @Test func everyRunKindIsAccepted() throws {
        let queue = try DatabaseQueue()
        try CatalogSchema.migrator.migrate(queue)
        try queue.write { db in
            for (index, kind) in RunKind.allCases.enumerated() {
                try db.execute(sql: """
                    INSERT INTO runs (id, kind, started_at, tool_version, command_line, working_directory, host, pid)
                    VALUES (?, ?, '2025-01-01 00:00:00.000', '0', 'sekit', '/', 'h', 1)
                    """, arguments: ["run-\(index)", kind.rawValue])
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: """
                    INSERT INTO runs (id, kind, started_at, tool_version, command_line, working_directory, host, pid)
                    VALUES ('bad', 'training', '2025-01-01 00:00:00.000', '0', 'sekit', '/', 'h', 1)
                    """)
            }
        }
    }

    static var sourceAnalysisColumns: [Column] {
        typealias A = SourceAnalysisRecord.Columns
        return [A.corpus, A.relativePath, A.path, A.sha256, A.sampleRate, A.durationSeconds, A.bandwidthHz, A.activeSpeechRatio,
                A.clippingRatio, A.dcOffset, A.levelDBFS, A.rmsDBFS, A.dnsmosSIG, A.dnsmosBAK, A.dnsmosOVRL, A.error, A.analysedAt]
    }

    @Test func recordColumnsNameEveryColumn() throws {
        typealias Run = RunRecord.Columns
        typealias Param = ParamRecord.Columns
        typealias Source = SourceRecord.Columns
        typealias Clip = ClipRecord.Columns
        typealias Noise = ClipNoiseRecord.Columns
        typealias Artifact = ArtifactRecord.Columns
        typealias Score = ClipScoreRecord.Columns
        typealias Aggregate = RunMetricRecord.Columns
        let declared: [(String, [Column])] = [
            (RunRecord.databaseTableName, [Run.id, Run.kind, Run.name, Run.status, Run.startedAt, Run.finishedAt, Run.toolVersion,
                                           Run.commandLine, Run.workingDirectory, Run.host, Run.pid, Run.parentID, Run.error]),
            (ParamRecord.databaseTableName, [Param.runID, Param.key, Param.valueText, Param.valueNumber]),
            (SourceRecord.databaseTableName, [Source.id, Source.kind, Source.corpus, Source.path, Source.relativePath, Source.sha256,
                                              Source.bytes, Source.modifiedAt, Source.format, Source.encoding, Source.sampleRate,
                                              Source.channels, Source.frames, Source.durationSeconds, Source.speaker, Source.importRunID]),
            (ClipRecord.databaseTableName, [Clip.id, Clip.runID, Clip.clipIndex, Clip.split, Clip.speechSourceID, Clip.speechOffsetSeconds,
                                            Clip.rirSourceID, Clip.snrRequestedDB, Clip.snrRealisedDB, Clip.levelDBFS, Clip.speechGain,
                                            Clip.noiseGain, Clip.clippingScale, Clip.seed, Clip.sampleRate, Clip.durationSeconds,
                                            Clip.noisyPath, Clip.cleanPath, Clip.noisePath]),
            (ClipNoiseRecord.databaseTableName, [Noise.clipID, Noise.position, Noise.sourceID, Noise.offsetSeconds, Noise.gain]),
            (ClipDegradationRecord.databaseTableName, [ClipDegradationRecord.Columns.clipID, ClipDegradationRecord.Columns.position,
                                                       ClipDegradationRecord.Columns.stage, ClipDegradationRecord.Columns.kind]),
            (ClipDegradationParamRecord.databaseTableName, [ClipDegradationParamRecord.Columns.clipID,
                                                            ClipDegradationParamRecord.Columns.position,
                                                            ClipDegradationParamRecord.Columns.key,
                                                                    ClipDegradationParamRecord.Columns.valueText,
                                                            ClipDegradationParamRecord.Columns.valueNumber]),
            (ArtifactRecord.databaseTableName, [Artifact.runID, Artifact.path, Artifact.kind, Artifact.sha256, Artifact.bytes,
                                                Artifact.createdAt]),
            (ClipScoreRecord.databaseTableName, [Score.runID, Score.clipID, Score.metric, Score.value, Score.noisyValue, Score.error]),
            (RunMetricRecord.databaseTableName, [Aggregate.runID, Aggregate.metric, Aggregate.subset, Aggregate.mean, Aggregate.std,
                                                 Aggregate.ci95Low,
                                                 Aggregate.ci95High, Aggregate.n]),
            (StepMetricRecord.databaseTableName, [StepMetricRecord.Columns.runID, StepMetricRecord.Columns.key,
                                                  StepMetricRecord.Columns.step, StepMetricRecord.Columns.value,
                                                  StepMetricRecord.Columns.time]),
            (RunTagRecord.databaseTableName, [RunTagRecord.Columns.runID, RunTagRecord.Columns.key, RunTagRecord.Columns.value]),
            (ListeningTestRecord.databaseTableName, [ListeningTestRecord.Columns.name, ListeningTestRecord.Columns.kind,
                                                     ListeningTestRecord.Columns.folder, ListeningTestRecord.Columns.stimuliHash,
                                                     ListeningTestRecord.Columns.seed, ListeningTestRecord.Columns.importedAt]),
            (ListeningStimulusRecord.databaseTableName, [ListeningStimulusRecord.Columns.test, ListeningStimulusRecord.Columns.id,
                                                         ListeningStimulusRecord.Columns.trial, ListeningStimulusRecord.Columns.clipID,
                                                         ListeningStimulusRecord.Columns.condition, ListeningStimulusRecord.Columns.role,
                                                         ListeningStimulusRecord.Columns.scoreRunID, ListeningStimulusRecord.Columns.snrDB,
                                                         ListeningStimulusRecord.Columns.file, ListeningStimulusRecord.Columns.sha256]),
            (ListeningRaterRecord.databaseTableName, [ListeningRaterRecord.Columns.test, ListeningRaterRecord.Columns.rater,
                                                      ListeningRaterRecord.Columns.source, ListeningRaterRecord.Columns.excluded,
                                                      ListeningRaterRecord.Columns.rule]),
            (ListeningRatingRecord.databaseTableName, [ListeningRatingRecord.Columns.test, ListeningRatingRecord.Columns.rater,
                                                       ListeningRatingRecord.Columns.stimulus, ListeningRatingRecord.Columns.scale,
                                                       ListeningRatingRecord.Columns.score, ListeningRatingRecord.Columns.timeSeconds]),
            (AnalysedCorpusRecord.databaseTableName, [AnalysedCorpusRecord.Columns.name, AnalysedCorpusRecord.Columns.folder,
                                                      AnalysedCorpusRecord.Columns.analysedAt, AnalysedCorpusRecord.Columns.toolVersion,
                                                      AnalysedCorpusRecord.Columns.dnsmosBackend]),
            (SourceAnalysisRecord.databaseTableName, Self.sourceAnalysisColumns),
            (CorpusRecord.databaseTableName, [CorpusRecord.Columns.identity, CorpusRecord.Columns.name, CorpusRecord.Columns.path,
                                              CorpusRecord.Columns.specSHA256, CorpusRecord.Columns.recordedAt]),
            (CorpusMixRunRecord.databaseTableName, [CorpusMixRunRecord.Columns.corpus, CorpusMixRunRecord.Columns.mixRunID]),
            (ScoreTargetRecord.databaseTableName, [ScoreTargetRecord.Columns.runID, ScoreTargetRecord.Columns.corpus,
                                                   ScoreTargetRecord.Columns.folder, ScoreTargetRecord.Columns.scored,
                                                   ScoreTargetRecord.Columns.enhancedFolder, ScoreTargetRecord.Columns.enhanceRunID]),
        ]
        let queue = try DatabaseQueue()
        try CatalogSchema.migrator.migrate(queue)
        let tables = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                + "AND name != 'grdb_migrations' ORDER BY name")
        }
        #expect(declared.map(\.0).sorted() == tables, "a table without a record type, or a record type without a table")
        for (table, columns) in declared {
            let actual = try queue.read { db in try db.columns(in: table).map(\.name) }
            #expect(columns.map(\.name) == actual, "\(table)")
        }
    }
}
