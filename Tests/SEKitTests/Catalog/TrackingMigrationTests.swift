import Foundation
import GRDB
import Testing
@testable import SEKit

/// Migration `v3-tracking` rebuilds `runs` for the kind `train` and adds `run_step_metrics` and
/// `run_tags`: every row, link and index of a catalogue made before it is kept.
@Suite struct TrackingMigrationTests {
    /// `name: sql` of the indexes on `table`.
    static func indexes(_ db: Database, on table: String) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name
            """, arguments: [table])
    }

    @Test func aVersion2CatalogueKeepsEveryRowAndIndexAndTakesTrainRuns() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("v2.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try CatalogSchema.migrator.migrate(queue, upTo: "v2-clip-degradations")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO runs (id, kind, name, status, started_at, finished_at, tool_version, command_line, working_directory, host, pid)
                VALUES ('mix-run', 'mix', 'corpus', 'finished', '2025-01-01 00:00:00.000', '2025-01-01 00:01:00.000', '0.0.1',
                        'sekit mix', '/', 'h', 1);
                INSERT INTO runs (id, kind, name, status, started_at, tool_version, command_line, working_directory, host, pid, parent_id)
                VALUES ('features-run', 'features', 'train.h5', 'running', '2025-01-02 00:00:00.000', '0.0.1', 'sekit features', '/',
                        'h', 2, 'mix-run');
                INSERT INTO runs (id, kind, name, status, started_at, finished_at, tool_version, command_line, working_directory, host, pid,
                                  parent_id, error)
                VALUES ('score-run', 'score', 'noisy', 'failed', '2025-01-03 00:00:00.000', '2025-01-03 00:00:01.000', '0.0.1',
                        'sekit score', '/', 'h', 3, 'mix-run', 'boom');
                INSERT INTO params (run_id, key, value_text, value_number) VALUES ('mix-run', 'seed', '7', 7);
                INSERT INTO clips (id, run_id, clip_index, split, seed, sample_rate, duration_seconds)
                VALUES ('c0', 'mix-run', 0, 'test', 1, 16000, 2);
                INSERT INTO artifacts (run_id, path, kind, created_at)
                VALUES ('features-run', '/x.h5', 'features-hdf5', '2025-01-02 00:00:00.000');
                INSERT INTO clip_scores (run_id, clip_id, metric, value) VALUES ('score-run', 'mix-run/c0', 'stoi', 0.8);
                INSERT INTO run_metrics (run_id, metric, mean, n) VALUES ('score-run', 'stoi', 0.8, 1);
                """)
        }
        let before = try queue.read { db in
            (try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id"), try Self.indexes(db, on: "runs"))
        }
        try queue.close()

        let catalog = try Catalog.open(at: url)
        #expect(try catalog.appliedMigrations() == CatalogSchema.migrationIdentifiers)
        #expect(CatalogSchema.migrationIdentifiers.contains("v3-tracking"))
        let after = try catalog.read { db in
            (try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id"), try Self.indexes(db, on: "runs"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM params") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM clip_scores") ?? -1,
             try String.fetchAll(db, sql: "PRAGMA foreign_key_check"), try String.fetchOne(db, sql: "PRAGMA integrity_check"))
        }
        #expect(after.0 == before.0, "every run row, with its parent, status and error")
        #expect(Set(before.1).isSubset(of: Set(after.1)), "the indexes of runs: \(after.1)")
        #expect(after.2 == 1 && after.3 == 1)
        #expect(after.4.isEmpty && after.5 == "ok")
        // Parents still refer to runs: a child of an unknown run is refused, one of a kept run accepted.
        let train = try catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py"], parent: RunID("features-run"))
        #expect(try catalog.run(train.rawValue).kind == .train)
        #expect(throws: CatalogError.self) {
            try catalog.beginRun(kind: .train, name: "x", commandLine: ["train.py"], parent: RunID("no-such-run"))
        }
        #expect(try catalog.runDetails("features-run").children == [train])
    }

    @Test func theSchemaRefusesNonFiniteStepValuesAndNegativeSteps() throws {
        let queue = try DatabaseQueue()
        try CatalogSchema.migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO runs (id, kind, started_at, tool_version, command_line, working_directory, host, pid)
                VALUES ('r', 'train', '2025-01-01 00:00:00.000', '0', 'train.py', '/', 'h', 1)
                """)
            let insert = """
                INSERT INTO run_step_metrics (run_id, key, step, value, time) VALUES ('r', 'loss', ?, ?, '2025-01-01 00:00:00.000')
                """
            try db.execute(sql: insert, arguments: [0, 0.5])
            for (step, value) in [(1, Double.nan), (2, .infinity), (3, -.infinity), (-1, 0.5)] {
                #expect(throws: DatabaseError.self, "step \(step) value \(value)") { try db.execute(sql: insert, arguments: [step, value]) }
            }
            #expect(throws: DatabaseError.self, "one value per key and step") { try db.execute(sql: insert, arguments: [0, 0.7]) }
        }
    }
}
