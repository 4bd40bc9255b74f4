import Foundation
import SEKitSignal
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// The catalogue: one SQLite file remembering sources, runs, parameters, clips, artifacts and scores.
///
/// Open it with ``open(at:create:)`` to record into it: every write is one IMMEDIATE transaction, so
/// several processes can record into the same file at once (WAL journal, 10 s busy timeout, foreign
/// keys on), and opening an older catalogue migrates it. Open it with ``openForReading(at:)`` to list
/// or inspect it: SQLite's read-only mode, so not a byte of the file changes. A newer catalogue, a
/// corrupt file or a non-SQLite file is refused and left untouched.
public final class Catalog: Sendable {
    /// The catalogue file.
    public let url: URL
    /// True when opened with ``openForReading(at:)``: every write is refused.
    public let isReadOnly: Bool
    /// A `DatabasePool` when writing; a read-only `DatabaseQueue` when reading.
    package let database: any DatabaseWriter

    /// How long a writer waits for another process's transaction before failing, seconds.
    public static let busyTimeoutSeconds: Double = 10

    /// The default catalogue: `$SEKIT_CATALOG` if set, else `experiments/catalog.sqlite` under `currentDirectory`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> URL {
        if let path = environment["SEKIT_CATALOG"], !path.isEmpty {
            return URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
        }
        return currentDirectory.appendingPathComponent("experiments/catalog.sqlite").standardizedFileURL
    }

    /// Opens (and migrates) the catalogue at `url`, creating it and its folder when `create` is true.
    /// - Throws: ``CatalogError/notFound(path:)`` when absent and `create` is false;
    ///   ``CatalogError/notACatalog(path:reason:)`` for a folder, a non-SQLite, corrupt or foreign database;
    ///   ``CatalogError/newerSchema(path:unknownMigrations:)`` for a catalogue from a newer SEKit.
    public static func open(at url: URL, create: Bool = true) throws(CatalogError) -> Catalog {
        let url = url.standardizedFileURL
        let path = url.path
        let existing = try checkFileBeforeOpening(path: path, create: create)
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(busyTimeoutSeconds)
        config.label = "SEKit.Catalog"
        // A fresh file starts in rollback-journal mode, where SQLite reports SQLITE_BUSY at once
        // (without waiting on the busy timeout) to avoid deadlocks when several processes create
        // it together; opening is retried until the busy timeout.
        let deadline = Date().addingTimeInterval(busyTimeoutSeconds)
        while true {
            do {
                let applied = existing ? try inspectExisting(path: path) : []
                let pool = try DatabasePool(path: path, configuration: config)
                if !applied.isEmpty, applied.count < CatalogSchema.migrator.migrations.count {
                    try backUpBeforeMigrating(pool, path: path, version: applied.count)
                }
                try prepareSchema(pool)
                return Catalog(url: url, database: pool, isReadOnly: false)
            } catch let error as DatabaseError
                        where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && Date() < deadline {
                Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.05))
            } catch {
                throw mapError(error, path: path)
            }
        }
    }

    /// Opens the existing catalogue at `url` for reading only (SQLite's read-only mode): nothing is
    /// migrated, stamped or marked, so the file's bytes and modification time stay as they are, and a
    /// read-only file (or one in a folder this user cannot write) can be read.
    ///
    /// A catalogue in WAL mode is read through its `-shm`/`-wal` files, which SQLite creates next to
    /// it when the folder is writable. When they cannot be created, the file is read as immutable,
    /// which is exact as long as no `-wal` file holds changes not yet written into the catalogue.
    /// - Throws: ``CatalogError/notFound(path:)`` when absent;
    ///   ``CatalogError/notACatalog(path:reason:)`` for a folder, a non-SQLite, corrupt or foreign database;
    ///   ``CatalogError/newerSchema(path:unknownMigrations:)`` for a catalogue from a newer SEKit;
    ///   ``CatalogError/olderSchema(path:missingMigrations:)`` for one a writing command has to migrate first;
    ///   ``CatalogError/database(path:reason:)`` when the folder is not writable and a `-wal` file holds
    ///   changes that only a writer can apply.
    public static func openForReading(at url: URL) throws(CatalogError) -> Catalog {
        let url = url.standardizedFileURL
        let path = url.path
        guard try checkFileBeforeOpening(path: path, create: false) else {
            throw .olderSchema(path: path, missingMigrations: CatalogSchema.migrator.migrations)
        }
        do {
            do {
                return try openReadOnlyQueue(url: url, sqlitePath: path)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN {
                // WAL mode needs the -shm (and -wal) files; SQLite could not create them next to the file.
                let wal = path + "-wal"
                let pending = ((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? NSNumber)?.intValue ?? 0
                guard pending == 0 else {
                    throw CatalogError.database(
                        path: path,
                        reason: "cannot be read without writing: SQLite cannot create its -shm file next to it "
                            + "(\(error.message ?? "\(error.resultCode)")) and \(wal) holds \(pending) bytes of changes "
                            + "not yet in the catalogue; open it once where the folder is writable (any writing command applies them)")
                }
                return try openReadOnlyQueue(url: url, sqlitePath: immutableURI(path: path))
            }
        } catch {
            throw mapError(error, path: path)
        }
    }

    /// A read-only queue on `sqlitePath` (the file, or an `immutable` URI of it), inspected like any
    /// existing file and refused when its schema lacks migrations.
    private static func openReadOnlyQueue(url: URL, sqlitePath: String) throws -> Catalog {
        let path = url.path
        let queue = try DatabaseQueue(path: sqlitePath, configuration: readOnlyConfiguration())
        do {
            let applied = try queue.read { db in try inspect(db, path: path) }
            let missing = CatalogSchema.migrator.migrations.filter { !applied.contains($0) }
            if !missing.isEmpty { throw CatalogError.olderSchema(path: path, missingMigrations: missing) }
        } catch {
            try? queue.close()
            throw error
        }
        return Catalog(url: url, database: queue, isReadOnly: true)
    }

    /// `file:` URI of `path` with `immutable=1`: SQLite reads it without locks or a -shm file.
    private static func immutableURI(path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?immutable=1"
    }

    private static func readOnlyConfiguration() -> Configuration {
        var config = Configuration()
        config.readonly = true
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(busyTimeoutSeconds)
        config.label = "SEKit.Catalog"
        return config
    }

    /// A bulk build's secondary indexes, dropped while it copies and created by ``finishBulkBuild()``
    /// (their `CREATE INDEX` statements); empty otherwise.
    private let deferredIndexSQL: [String]

    private init(url: URL, database: any DatabaseWriter, isReadOnly: Bool, deferredIndexSQL: [String] = []) {
        self.url = url
        self.database = database
        self.isReadOnly = isReadOnly
        self.deferredIndexSQL = deferredIndexSQL
    }

    /// Refuses folders and files that do not start with the SQLite header, before SQLite touches them.
    /// Returns true when a non-empty file exists (to be inspected read-only before opening for writing).
    private static func checkFileBeforeOpening(path: String, create: Bool) throws(CatalogError) -> Bool {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .notACatalog(path: path, reason: "it is a folder") }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw .notACatalog(path: path, reason: "cannot be opened for reading")
            }
            defer { try? handle.close() }
            let header = (try? handle.read(upToCount: 16)) ?? Data()
            if header.isEmpty { return false }  // a zero-byte file holds nothing to lose; SQLite initialises it
            if header != Data("SQLite format 3\0".utf8) {
                throw .notACatalog(path: path, reason: "not an SQLite database: its first bytes are not the SQLite header")
            }
            return true
        } else {
            guard create else { throw .notFound(path: path) }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .file(path: folder.path, reason: "cannot create the catalogue folder: \(error.localizedDescription)")
            }
            return false
        }
    }

    /// Opens an existing file read-only (so nothing, not even the journal mode, is written to a file
    /// that turns out not to be ours) and refuses corrupt files, other applications' databases and
    /// catalogues from a newer SEKit.
    /// - Throws: ``CatalogError`` for what it finds, or the `DatabaseError` SQLite raised.
    /// A file not yet in WAL mode is also checked whole (`PRAGMA quick_check`) first, because
    /// switching it to WAL writes its header: a corrupt file is refused before that write.
    @discardableResult
    private static func inspectExisting(path: String) throws -> Set<String> {
        let queue = try DatabaseQueue(path: path, configuration: readOnlyConfiguration())
        defer { try? queue.close() }
        return try queue.read { db in
            let applied = try inspect(db, path: path)
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() != "wal" else { return applied }
            let problems = try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
            if let first = problems.first {
                throw CatalogError.notACatalog(path: path, reason: "SQLite reports it corrupt: \(first)")
            }
            return applied
        }
    }

    /// Where ``open(at:create:)`` keeps a copy of a catalogue of schema version `version` (the number
    /// of migrations applied) before migrating it: `catalog.sqlite.backup-schema-v5` beside it.
    public static func backupURL(of url: URL, version: Int) -> URL {
        URL(fileURLWithPath: url.standardizedFileURL.path + ".backup-schema-v\(version)")
    }

    /// Copies the catalogue (SQLite's online backup: one consistent state, WAL included) to
    /// ``backupURL(of:version:)`` before a migration, unless a copy of that version is there already
    /// (an earlier attempt made it: it is the older state). Written under a temporary name, then renamed.
    private static func backUpBeforeMigrating(_ pool: DatabasePool, path: String, version: Int) throws {
        let backup = backupURL(of: URL(fileURLWithPath: path), version: version).path
        guard !FileManager.default.fileExists(atPath: backup) else { return }
        let temporary = backup + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        do {
            let copy = try DatabaseQueue(path: temporary)
            try pool.backup(to: copy)
            try copy.close()
            Syscalls.fsyncFile(atPath: temporary)
            try? FileManager.default.moveItem(atPath: temporary, toPath: backup)  // another process's copy may have won
        } catch {
            throw CatalogError.file(path: backup, reason: "cannot copy the catalogue before migrating it (nothing was migrated): \(error)")
        }
    }

    /// Refuses other applications' databases and catalogues from a newer SEKit; returns the applied
    /// migrations (none for a database without tables).
    /// - Throws: ``CatalogError`` for what it finds, or the `DatabaseError` SQLite raised.
    private static func inspect(_ db: Database, path: String) throws -> Set<String> {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard !tables.isEmpty else { return [] }
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationID != 0 && applicationID != CatalogSchema.applicationID {
            throw CatalogError.notACatalog(path: path,
                    reason: String(format: "an SQLite database of another application (application_id 0x%08x)", applicationID))
        }
        guard tables.contains("grdb_migrations") else {
            throw CatalogError.notACatalog(path: path,
                    reason: "an SQLite database without SEKit's tables (it has \(tables.sorted().prefix(5).joined(separator: ", ")))")
        }
        let applied = try CatalogSchema.migrator.appliedIdentifiers(db)
        let unknown = applied.subtracting(CatalogSchema.migrator.migrations)
        if !unknown.isEmpty { throw CatalogError.newerSchema(path: path, unknownMigrations: unknown.sorted()) }
        return applied
    }

    /// Creates a catalogue at `url` (which must not exist) for one bulk writer: SQLite's rollback
    /// journal in memory and no syncs (``finishBulkBuild()`` switches it to WAL and syncs it), so a
    /// large merge writes every page once; 16 KiB pages (SQLite's default is 4 KiB), which make
    /// the B-trees of million-row tables shallower and a merge of them about a quarter faster; and
    /// the secondary indexes of the per-clip tables left out until the end
    /// (``CatalogSchema/bulkDeferredIndexes``). Only for a file under a temporary name that nothing else
    /// opens: a crash leaves it unusable, and it must then be deleted.
    package static func createForBulkBuild(at url: URL) throws(CatalogError) -> Catalog {
        let url = url.standardizedFileURL
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw .invalidParameter(name: "OUT", value: url.path, reason: "exists already")
        }
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.label = "SEKit.Catalog.bulk"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 16384")
            try db.execute(sql: "PRAGMA journal_mode = MEMORY")
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: config)
            try prepareSchema(queue)
            let deferred = try queue.write { db in
                let names = CatalogSchema.bulkDeferredIndexes
                let sql = try String.fetchAll(db, sql: """
                    SELECT sql FROM sqlite_master WHERE type = 'index' \
                    AND name IN (\(names.map { _ in "?" }.joined(separator: ", "))) ORDER BY name
                    """, arguments: StatementArguments(names))
                for name in names { try db.execute(sql: "DROP INDEX IF EXISTS \"\(name)\"") }
                return sql
            }
            return Catalog(url: url, database: queue, isReadOnly: false, deferredIndexSQL: deferred)
        } catch {
            throw mapError(error, path: url.path)
        }
    }

    /// Ends a bulk build (``createForBulkBuild(at:)``): the secondary indexes are created (one sort
    /// each, faster than keeping them up to date row by row), and the file is switched to WAL, as
    /// every catalogue is, synced, and closed.
    package func finishBulkBuild() throws(CatalogError) {
        do {
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA main.cache_size = \(Self.mergeCacheKiB)")
                for sql in deferredIndexSQL { try db.execute(sql: sql) }
                try db.execute(sql: "PRAGMA synchronous = FULL")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            try database.close()
            Syscalls.fsyncFile(atPath: url.path)
        } catch {
            throw Self.mapError(error, path: url.path)
        }
    }

    /// Applies missing migrations and stamps `application_id` and `user_version`.
    private static func prepareSchema(_ pool: any DatabaseWriter) throws {
        let migrator = CatalogSchema.migrator
        // The migrator reads what is applied outside its transaction, so when several processes
        // migrate a fresh file at once the loser fails on "table exists"; it retries and finds it done.
        var attempt = 0
        while true {
            do {
                try migrator.migrate(pool)
                break
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && attempt < 5 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.02 * Double(attempt))
            }
        }
        try pool.write { db in
            let version = try migrator.appliedMigrations(db).count
            if try Int32.fetchOne(db, sql: "PRAGMA application_id") != CatalogSchema.applicationID {
                try db.execute(sql: "PRAGMA application_id = \(CatalogSchema.applicationID)")
            }
            if try Int.fetchOne(db, sql: "PRAGMA user_version") != version {
                try db.execute(sql: "PRAGMA user_version = \(version)")
            }
        }
    }

    /// Turns a GRDB/SQLite error into a ``CatalogError`` naming the catalogue.
    package static func mapError(_ error: any Error, path: String) -> CatalogError {
        if let error = error as? CatalogError { return error }
        if let error = error as? DatabaseError {
            let message = error.message ?? "\(error.resultCode)"
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .notACatalog(path: path, reason: "SQLite reports: \(message)")
            default:
                return .database(path: path, reason: "\(message) (\(error.resultCode))")
            }
        }
        return .database(path: path, reason: "\(error)")
    }

    /// Runs `body` in one IMMEDIATE write transaction (takes the write lock at once, so concurrent
    /// writers queue on the busy timeout instead of failing on a stale read snapshot).
    package func write<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        try refuseIfReadOnly()
        do {
            return try database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw Self.mapError(error, path: url.path)
        }
    }

    /// Runs `body` on a read snapshot.
    package func read<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        do {
            return try database.read { db in try body(db) }
        } catch {
            throw Self.mapError(error, path: url.path)
        }
    }

    /// Runs `body` on the writer connection outside a transaction (for ATTACH).
    package func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        try refuseIfReadOnly()
        do {
            return try database.writeWithoutTransaction { db in try body(db) }
        } catch {
            throw Self.mapError(error, path: url.path)
        }
    }

    /// A catalogue opened for reading is never written to: a write is a programming error, reported.
    private func refuseIfReadOnly() throws(CatalogError) {
        if isReadOnly {
            throw .database(path: url.path,
                            reason: "opened read-only (for reading); this operation writes and needs a command that opens it for writing")
        }
    }

    /// Identifiers of the applied schema migrations, oldest first.
    public func appliedMigrations() throws(CatalogError) -> [String] {
        try read { db in try CatalogSchema.migrator.appliedMigrations(db) }
    }
}
