import Foundation
import Testing

/// Reading commands open the catalogue read-only: a listing never changes a byte of it (hardening item 7).
@Suite struct CatalogReadOnlyTests {
    static var sqliteAvailable: Bool { TestEnvironment.sqliteAvailable }
    /// `setpriv` runs the binary as `nobody`, for whom a root-owned folder and a 0444 file are really
    /// read-only (the tests run as root, who ignores file permissions).
    static var canDropPrivileges: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    /// SHA-256, size and modification time of a file.
    static func fingerprint(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
        return "\(GoldenCorpus.sha256(try Data(contentsOf: URL(fileURLWithPath: path)))) \(attributes[.size] ?? -1) \(modified)"
    }

    /// A catalogue with one import run, made by the real binary. Returns its path and the run id.
    static func makeCatalogue(in folder: CatalogCLIFolder, name: String) throws -> (path: String, run: String) {
        try folder.writeWAV("noise/n.wav")
        let path = folder.path(name)
        let imported = try SEKitBinary.run(["catalog", "import", "--catalog", path, "--kind", "noise", "--corpus", "n",
                                            folder.path("noise")])
        #expect(imported.status == 0, "\(imported.stderr)")
        return (path, try folder.sqlite(path, "SELECT id FROM runs"))
    }

    static func readingCommands(_ path: String, run: String) -> [[String]] {
        [["runs", "list"], ["runs", "show", run], ["catalog", "stats"], ["catalog", "clips", "--format", "csv"],
         ["catalog", "check", "--dry-run"]].map { $0 + ["--catalog", path] }
    }

    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func listingLeavesHealthyAndCorruptFilesUnchanged() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let (healthy, run) = try Self.makeCatalogue(in: folder, name: "healthy.sqlite")
        // A corrupt copy: the schema page intact (so opening gets past the header check), the page of an
        // index no reading command uses trashed (it was the last page until migration v3-tracking rebuilt
        // `runs` after it), in rollback-journal mode (header bytes 18-19 = 1), which a writer would switch to WAL.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: healthy))
        let page = try #require(Int(try folder.sqlite(healthy, "PRAGMA page_size")))
        let index = "SELECT rootpage FROM sqlite_master WHERE name = 'clip_degradation_params_key_number'"
        let root = try #require(Int(try folder.sqlite(healthy, index)))
        for i in ((root - 1) * page)..<(root * page) { bytes[i] = 0xA5 }
        bytes[18] = 1; bytes[19] = 1
        let corrupt = folder.path("corrupt.sqlite")
        try bytes.write(to: URL(fileURLWithPath: corrupt))
        let readOnly = folder.path("readonly.sqlite")
        try FileManager.default.copyItem(atPath: healthy, toPath: readOnly)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)

        for path in [healthy, readOnly] {
            let before = try Self.fingerprint(path)
            for arguments in Self.readingCommands(path, run: run) {
                let result = try SEKitBinary.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(try Self.fingerprint(path) == before, "\(arguments) changed \(path)")
            }
            #expect(try Self.fingerprint(path) == before)
        }
        let before = try Self.fingerprint(corrupt)
        for arguments in Self.readingCommands(corrupt, run: run) {
            let result = try SEKitBinary.run(arguments)
            // Reading may work or stop at the bad page; check reports the damage.
            if arguments[1] == "check" { #expect(result.status == 1 && result.stdout.contains("integrity"), "\(result.stdout)") }
            else if result.status != 0 { #expect(result.stderr.contains(corrupt), "\(arguments): \(result.stderr)") }
            #expect(try Self.fingerprint(corrupt) == before, "\(arguments) changed the corrupt file")
        }
        // A writing command refuses it before switching it to WAL, and says so truthfully.
        let imported = try SEKitBinary.run(["catalog", "import", "--catalog", corrupt, "--kind", "noise", "--corpus", "m",
                                            folder.path("noise")])
        #expect(imported.status != 0 && imported.stderr.contains("corrupt") && imported.stderr.contains(corrupt), "\(imported.stderr)")
        #expect(try Self.fingerprint(corrupt) == before, "import changed the corrupt file")
    }

    /// A 0444 catalogue in a folder the user cannot write (no -shm can be created): listed, unchanged.
    @Test(.enabled(if: sqliteAvailable && canDropPrivileges, "needs sqlite3, setpriv and root"))
    func readOnlyFileInReadOnlyFolderIsListed() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let (path, run) = try Self.makeCatalogue(in: folder, name: "catalog.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.path)
        let before = try Self.fingerprint(path)
        for arguments in Self.readingCommands(path, run: run) {
            let result = try Self.runAsNobody(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(arguments[0] != "runs" || arguments[1] != "list" || result.stdout.contains(run))
        }
        #expect(try Self.fingerprint(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        // A writing command is refused by the file system, naming the catalogue.
        let write = try Self.runAsNobody(["catalog", "check", "--catalog", path])
        #expect(write.status != 0 && write.stderr.contains(path))
        #expect(try Self.fingerprint(path) == before)
    }

    /// A catalogue whose schema predates this SEKit is refused by reading commands (which never
    /// migrate) with a message saying a writing command migrates it; after one, it is listed.
    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func olderSchemaIsRefusedForReadingThenMigratedByAWriter() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let path = folder.path("old.sqlite")
        _ = try folder.sqlite(path,
                              "PRAGMA application_id = 1397050196; CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let before = try Self.fingerprint(path)
        let listed = try SEKitBinary.run(["runs", "list", "--catalog", path])
        #expect(listed.status != 0)
        #expect(listed.stderr.contains(path) && listed.stderr.contains("older schema") && listed.stderr.contains("v1-catalog")
                && listed.stderr.contains("migrates it"), "\(listed.stderr)")
        #expect(try Self.fingerprint(path) == before)
        let checked = try SEKitBinary.run(["catalog", "check", "--catalog", path])
        #expect(checked.status == 0, "\(checked.stderr)")
        let again = try SEKitBinary.run(["runs", "list", "--catalog", path])
        #expect(again.status == 0, "\(again.stderr)")
    }

    static func runAsNobody(_ arguments: [String]) throws -> SEKitBinary.Result {
        try SEKitBinary.run(arguments, launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
    }
}
