import Foundation
import GRDB
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct CatalogSchemaTests {
    /// The schema SQL of a catalogue, normalised, for comparing a migrated file with a fresh one.
    static func schema(_ url: URL) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master "
                                + "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
        }
    }

    @Test func freshCatalogueHasEverySettingAndTable() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("sub/dir/catalog.sqlite")
        let catalog = try Catalog.open(at: url)
        #expect(try catalog.appliedMigrations() == CatalogSchema.migrationIdentifiers)
        let queue = try DatabaseQueue(path: url.path)
        let (mode, applicationID, userVersion, tables) = try queue.read { db throws -> (String?, Int32?, Int?, [String]) in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int32.fetchOne(db, sql: "PRAGMA application_id"),
             try Int.fetchOne(db, sql: "PRAGMA user_version"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
        }
        #expect(mode == "wal")
        #expect(applicationID == CatalogSchema.applicationID)
        #expect(userVersion == CatalogSchema.migrationIdentifiers.count)
        for table in ["sources", "runs", "params", "clips", "clip_noises", "artifacts", "clip_scores", "run_metrics"] {
            #expect(tables.contains(table), "\(table)")
        }
        let foreignKeys = try catalog.read { db throws -> Bool? in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }
        #expect(foreignKeys == true)
    }

    /// Builds a catalogue at every earlier schema version with data valid at that version, then
    /// opens it with the current tool: it must migrate to the same schema as a fresh file and keep the data.
    @Test func migratesFromEveryEarlierVersion() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let fresh = folder.file("fresh.sqlite")
        _ = try Catalog.open(at: fresh)
        let freshSchema = try Self.schema(fresh)
        for (index, identifier) in CatalogSchema.migrationIdentifiers.enumerated() {
            let url = folder.file("at-\(index).sqlite")
            let queue = try DatabaseQueue(path: url.path)
            try CatalogSchema.migrator.migrate(queue, upTo: identifier)
            try queue.write { db in try Self.insertFixture(db, version: index + 1) }
            try queue.close()
            let catalog = try Catalog.open(at: url)
            #expect(try catalog.appliedMigrations() == CatalogSchema.migrationIdentifiers)
            #expect(try Self.schema(url) == freshSchema)
            let run = try catalog.run("fixture-run")
            #expect(run.status == .finished)
            #expect(try catalog.params(of: run.id).map(\.valueNumber) == [5])
            #expect(try catalog.clips().map(\.id) == ["fixture-clip"])
        }
    }

    /// Data written by hand in the SQL of schema `version` (1 = "v1-catalog").
    static func insertFixture(_ db: Database, version: Int) throws {
        try db.execute(sql: """
            INSERT INTO runs (id, kind, name, status, started_at, finished_at, tool_version, command_line, working_directory, host, pid)
            VALUES ('fixture-run', 'mix', 'old', 'finished', '2025-01-01 00:00:00.000', '2025-01-01 00:01:00.000', \
            '0.0.1', 'sekit mix', '/', 'h', 1);
            INSERT INTO params (run_id, key, value_text, value_number) VALUES ('fixture-run', 'snr_db', '5', 5);
            INSERT INTO clips (id, run_id, clip_index, split, seed, sample_rate, duration_seconds)
            VALUES ('fixture-clip', 'fixture-run', 0, 'train', 1, 16000, 2.5);
            """)
    }

    /// A merge into a new catalogue builds it with its secondary indexes left out until the end and
    /// 16 KiB pages: the result has every index of a fresh catalogue, in WAL mode, intact.
    @Test func aMergeIntoANewCatalogueHasTheFreshSchema() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let fresh = folder.file("fresh.sqlite")
        _ = try Catalog.open(at: fresh)
        let input = try Catalog.open(at: folder.file("input.sqlite"))
        let mix = try input.beginRun(kind: .mix, commandLine: ["sekit", "mix"])
        _ = try input.insertClips((0..<50).map { CatalogTestSupport.clip(mix, index: $0, snrDB: Double($0 % 7)) })
        let out = folder.file("out.sqlite")
        let report = try Catalog.mergeIntoNew(at: out, [input.url], folding: .recomputingScores)
        #expect(report.totalInserted == 51)   // the run and its clips
        #expect(try Self.schema(out) == (try Self.schema(fresh)))
        let queue = try DatabaseQueue(path: out.path)
        let (pageSize, mode, integrity, clips) = try queue.read { db throws -> (Int?, String?, String?, Int?) in
            (try Int.fetchOne(db, sql: "PRAGMA page_size"), try String.fetchOne(db, sql: "PRAGMA journal_mode"),
             try String.fetchOne(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db,
                     sql: "SELECT count(*) FROM clips INDEXED BY clips_snr_requested WHERE snr_requested_db = 3"))
        }
        #expect(pageSize == 16_384 && mode == "wal" && integrity == "ok")
        #expect(clips == 7)
    }

    @Test func refusesNewerCatalogue() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("c.sqlite")
        _ = try Catalog.open(at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')") }
        try queue.close()
        #expect(throws: CatalogError.newerSchema(path: url.path, unknownMigrations: ["v99-from-the-future"])) {
            _ = try Catalog.open(at: url)
        }
        let message = "\(CatalogError.newerSchema(path: url.path, unknownMigrations: ["v99-from-the-future"]))"
        #expect(message.contains("newer SEKit") && message.contains(url.path))
    }

    @Test func refusesAndNeverOverwritesNonCatalogues() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        // A text file, a truncated SQLite header, a corrupt database and another application's database.
        let text = folder.file("notes.sqlite")
        try Data("these are my notes, not a database\n".utf8).write(to: text)
        let truncated = folder.file("truncated.sqlite")
        try Data("SQLite format".utf8).write(to: truncated)
        let corrupt = folder.file("corrupt.sqlite")
        _ = try Catalog.open(at: corrupt)
        var bytes = try Data(contentsOf: corrupt)
        for i in 100..<min(bytes.count, 4096) { bytes[i] = 0xA5 }   // trash the schema page after the header
        try FileManager.default.removeItem(at: corrupt)
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: corrupt.path + "-wal"))
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: corrupt.path + "-shm"))
        try bytes.write(to: corrupt)
        let foreign = folder.file("foreign.sqlite")
        let queue = try DatabaseQueue(path: foreign.path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE songs (title TEXT)") }
        try queue.close()
        for url in [text, truncated, corrupt, foreign] {
            let before = try Data(contentsOf: url)
            do {
                _ = try Catalog.open(at: url)
                Issue.record("opened \(url.lastPathComponent)")
            } catch {
                #expect(error.code == "not-a-catalog", "\(url.lastPathComponent): \(error)")
                #expect(error.description.contains(url.path))
            }
            #expect(try Data(contentsOf: url) == before, "\(url.lastPathComponent) was modified")
        }
        #expect(throws: CatalogError.notACatalog(path: folder.url.path, reason: "it is a folder")) { _ = try Catalog.open(at: folder.url) }
        #expect(throws: CatalogError.notFound(path: folder.file("none.sqlite").path)) { _ = try Catalog.open(at: folder.file("none.sqlite"),
                                                                                                             create: false) }
    }

    @Test func recordsRoundTrip() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let wav = folder.file("speech/p1/a.wav")
        try CatalogTestSupport.writeWAV(wav, seconds: 0.25)
        let report = try ImportJob.run(ImportJob.Request(paths: [folder.file("speech")], kind: .speech, corpus: "toy",
                                                         speakerPattern: "(p[0-9]+)/"),
                context: RunContext(catalog: catalog, commandLine: ["sekit", "x"])).result
        #expect(report.added == ["toy:p1/a.wav"])
        let source = try #require(try catalog.source("toy:p1/a.wav"))
        #expect(source.speaker == "p1" && source.sampleRate == 16_000 && source.frames == 4000 && source.durationSeconds == 0.25)
        #expect(source.sha256 == (try SHA256.hex(ofFileAt: wav)))
        #expect(source.importRunID == report.runID)

        let parent = try catalog.beginRun(kind: .mix, name: "toy-mix", commandLine: ["sekit", "mix", "--snr-db", "0 5"],
                                          params: ["snr_db": "5", "checkpoint": "crn-v2", "seed": "42"])
        let mixRun = try catalog.run(parent.rawValue)
        #expect(mixRun.status == .running && mixRun.finishedAt == nil && mixRun.commandLine == "sekit mix --snr-db '0 5'")
        #expect(try catalog.params(of: parent).map { "\($0.key)=\($0.valueText)/\($0.valueNumber.map { "\($0)" } ?? "nil")" }
                == ["checkpoint=crn-v2/nil", "seed=42/42.0", "snr_db=5/5.0"])
        let clip = CatalogTestSupport.clip(parent, index: 3, speech: source.id)
        let noise = ClipNoiseRecord(clipID: clip.id, position: 0, sourceID: source.id, offsetSeconds: 0.1, gain: 0.5)
        #expect(try catalog.insertClips([clip], noises: [noise]) == 1)
        #expect(try catalog.clips() == [clip])
        #expect(try catalog.noises(ofClip: clip.id) == [noise])
        #expect(throws: CatalogError.self) { try catalog.insertClips([clip]) }
        #expect(try catalog.insertClips([clip], noises: [noise], onConflict: .skipExisting) == 0)
        try catalog.finishRun(parent)
        #expect(throws: CatalogError.self) { try catalog.finishRun(parent) }

        let score = try catalog.beginRun(kind: .score, commandLine: ["sekit", "score"], parent: parent)
        let scores = [ClipScoreRecord(runID: score, clipID: clip.id, metric: "stoi", value: 0.91, noisyValue: 0.8),
                      ClipScoreRecord(runID: score, clipID: "external-1", metric: "stoi", value: nil, error: "too short")]
        try catalog.insertClipScores(scores)
        #expect(try catalog.clipScores(run: score) == scores.sorted { $0.clipID < $1.clipID })
        let metric = RunMetricRecord(runID: score, metric: "stoi", mean: 0.91, std: 0.02, ci95Low: 0.89, ci95High: 0.93, n: 1)
        try catalog.insertRunMetrics([metric])
        #expect(try catalog.runMetrics(run: score) == [metric])
        try catalog.recordArtifact(run: score, fileAt: wav, kind: "wav")
        try catalog.finishRun(score, status: .failed, error: "disk full")
        let details = try catalog.runDetails(String(score.rawValue.prefix(13)))
        #expect(details.run.status == .failed && details.run.error == "disk full" && details.run.parentID == parent)
        #expect(details.artifacts.first?.bytes == 44 + 8000 && details.artifacts.first?.sha256 == source.sha256)
        #expect(details.metrics == [metric] && details.clipScoreCount == 2)
        #expect(try catalog.runDetails(parent.rawValue).children == [score])
    }

    @Test func schemaRejectsBadRows() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let run = try catalog.beginRun(kind: .mix, commandLine: ["sekit"])
        var clip = CatalogTestSupport.clip(run, index: 0)
        clip.clippingScale = 1.5
        #expect(throws: CatalogError.self) { try catalog.insertClips([clip]) }
        clip = CatalogTestSupport.clip(run, index: 0, speech: "no-such-source")
        #expect(throws: CatalogError.self) { try catalog.insertClips([clip]) }   // foreign key
        clip = CatalogTestSupport.clip(RunID("no-such-run"), index: 0)
        #expect(throws: CatalogError.self) { try catalog.insertClips([clip]) }
        #expect(throws: CatalogError.self) {
            try catalog.insertClipScores([ClipScoreRecord(runID: run, clipID: "c", metric: "stoi", value: nil, error: nil)])
        }
        #expect(throws: CatalogError.self) { try catalog.beginRun(kind: .score, commandLine: [], parent: RunID("missing")) }
        // A batch with one bad clip records nothing.
        var bad = CatalogTestSupport.clip(run, index: 2); bad.durationSeconds = 0
        #expect(throws: CatalogError.self) { try catalog.insertClips([CatalogTestSupport.clip(run, index: 1), bad]) }
        #expect(try catalog.clips().isEmpty)
    }
}
