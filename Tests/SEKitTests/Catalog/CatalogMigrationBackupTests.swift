import Foundation
import GRDB
import Testing
@testable import SEKit
@testable import SEKitCatalog

/// Opening a catalogue of an older schema keeps a copy of it before migrating (issue 41): the copy
/// holds the old schema and every row; a copy that cannot be made stops the migration with the
/// catalogue untouched.
@Suite struct CatalogMigrationBackupTests {
    /// A catalogue of schema v5 (before the `sekit_v1_*` views) with one finished mix run.
    static func version5Catalogue(at url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        try CatalogSchema.migrator.migrate(queue, upTo: "v5-source-analysis")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO runs (id, kind, name, status, started_at, finished_at, tool_version, command_line, working_directory, host, pid)
                VALUES ('mix-run', 'mix', 'corpus', 'finished', '2025-01-01 00:00:00.000', '2025-01-01 00:01:00.000', '0.0.1',
                        'sekit mix', '/', 'h', 1);
                PRAGMA application_id = \(CatalogSchema.applicationID);
                PRAGMA user_version = 5;
                """)
        }
        try queue.close()
    }

    static func state(_ url: URL) throws -> (version: Int, views: Int, runs: [String]) {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'view'") ?? -1,
             try String.fetchAll(db, sql: "SELECT id FROM runs ORDER BY id"))
        }
    }

    @Test func aVersion5CatalogueIsCopiedThenMigratedOnce() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("catalog.sqlite")
        try Self.version5Catalogue(at: url)
        let catalog = try Catalog.open(at: url)
        #expect(try catalog.resolveRun("corpus").id.rawValue == "mix-run")
        let backup = Catalog.backupURL(of: url, version: 5)
        #expect(backup.lastPathComponent == "catalog.sqlite.backup-schema-v5")
        let copy = try Self.state(backup)
        #expect(copy.version == 5 && copy.views == 0 && copy.runs == ["mix-run"], "\(copy)")
        let migrated = try Self.state(url)
        #expect(migrated.version == CatalogSchema.migrator.migrations.count && migrated.views == 10 && migrated.runs == ["mix-run"])
        // Opening it again migrates nothing and copies nothing.
        let modified = try FileManager.default.attributesOfItem(atPath: backup.path)[.modificationDate] as? Date
        _ = try Catalog.open(at: url)
        #expect(try FileManager.default.attributesOfItem(atPath: backup.path)[.modificationDate] as? Date == modified)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func aCopyThatCannotBeMadeLeavesTheCatalogueUnmigrated() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("catalog.sqlite")
        try Self.version5Catalogue(at: url)
        // The temporary copy's name is taken by a folder: the copy fails.
        let blocker = Catalog.backupURL(of: url, version: 5).path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
        do {
            _ = try Catalog.open(at: url)
            Issue.record("a catalogue was migrated without a copy")
        } catch {
            guard case .file(let path, let reason) = error else { Issue.record("\(error)"); return }
            #expect(path.hasSuffix("catalog.sqlite.backup-schema-v5") && reason.contains("nothing was migrated"), "\(reason)")
        }
        let untouched = try Self.state(url)
        #expect(untouched.version == 5 && untouched.views == 0 && untouched.runs == ["mix-run"])
    }
}
