import Foundation
import GRDB
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The inputs of `catalog merge` are never written (an empty file stays empty, an older catalogue
/// keeps its schema), and a merge refused before anything is merged leaves no output.
@Suite struct CatalogMergeInputTests {
    static func digest(_ url: URL) throws -> String { try SHA256.hex(ofFileAt: url) }

    /// A current catalogue with one finished mix run of 5 clips.
    static func input(_ url: URL) throws -> URL {
        let catalog = try Catalog.open(at: url)
        let run = try catalog.beginRun(kind: .mix, name: "m", commandLine: ["sekit", "mix", url.lastPathComponent])
        try catalog.insertClips((0..<5).map { CatalogTestSupport.clip(run, index: $0) })
        try catalog.finishRun(run)
        return url
    }

    /// Files in `folder` (hidden ones included), sorted, but SQLite's `-wal` and `-shm` files, which
    /// a read-only connection to a WAL catalogue makes beside it.
    static func listing(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.sorted()
    }

    @Test func anEmptyInputIsRefusedNamedAndLeftEmpty() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let empty = folder.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: nil))
        let valid = try Self.input(folder.file("valid.sqlite"))
        let existing = try Catalog.open(at: folder.file("existing.sqlite"))
        let before = try Self.listing(folder.url)
        for fold in [true, false] {
            #expect(throws: RunsError.catalog(.notACatalog(path: empty.path, reason: "the file is empty (0 bytes): nothing to merge"))) {
                _ = try Catalog.mergeIntoNew(at: folder.file("new.sqlite"), [valid, empty], folding: fold ? .recomputingScores : nil)
            }
            #expect(throws: RunsError.catalog(.notACatalog(path: empty.path, reason: "the file is empty (0 bytes): nothing to merge"))) {
                _ = try existing.merge([valid, empty], folding: fold ? .recomputingScores : nil)
            }
        }
        #expect(try FileManager.default.attributesOfItem(atPath: empty.path)[.size] as? NSNumber == 0)
        #expect(try existing.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runs") } == 0,
                "nothing of the valid input merged")
        #expect(try Self.listing(folder.url) == before, "files appeared or vanished")
    }

    @Test func aMergeRefusedBeforeAnythingIsMergedLeavesNoOutput() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let valid = try Self.input(folder.file("valid.sqlite"))
        let text = folder.file("notes.sqlite")
        try Data("not a catalogue\n".utf8).write(to: text)
        let before = try Self.listing(folder.url)
        for inputs in [[folder.file("missing.sqlite")], [valid, folder.file("missing.sqlite")], [valid, text]] {
            for fold in [true, false] {
                let folding: ShardFolding? = fold ? .recomputingScores : nil
                #expect(throws: RunsError.self) { _ = try Catalog.mergeIntoNew(at: folder.file("out.sqlite"), inputs, folding: folding) }
                #expect(try Self.listing(folder.url) == before, "\(inputs.map(\.lastPathComponent)) fold \(fold) left files")
            }
        }
    }

    @Test func inputsOfThisAndOlderSchemasAreNotModified() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let current = try Self.input(folder.file("current.sqlite"))
        // A catalogue at the first schema version, as SEKit 0.1 wrote it.
        let older = folder.file("older.sqlite")
        let queue = try DatabaseQueue(path: older.path)
        try CatalogSchema.migrator.migrate(queue, upTo: CatalogSchema.migrationIdentifiers[0])
        try queue.write { db in try CatalogSchemaTests.insertFixture(db, version: 1) }
        try queue.close()
        let digests = try [current, older].map(Self.digest)
        let out = try Catalog.open(at: folder.file("out.sqlite"))
        let report = try out.merge([current, older], folding: .recomputingScores)
        #expect(report.inserted[older.path]?["runs"] == 1 && report.inserted[current.path]?["clips"] == 5, "\(report.inserted)")
        #expect(try out.run("fixture-run").name == "old")
        _ = try Catalog.mergeIntoNew(at: folder.file("new.sqlite"), [current, older], folding: nil)
        #expect(try [current, older].map(Self.digest) == digests, "an input was written")
        let applied = try DatabaseQueue(path: older.path).read { db in try CatalogSchema.migrator.appliedIdentifiers(db) }
        #expect(applied == [CatalogSchema.migrationIdentifiers[0]], "the older input was migrated")
    }
}
