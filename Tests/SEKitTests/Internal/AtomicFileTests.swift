import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct AtomicFileTests {
    /// Names in `folder`, hidden ones included, sorted.
    static func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Writes a few bytes to `url`, which must fail in the system call `call`; returns the failure.
    @discardableResult
    static func expectFailure(writing url: URL, in call: String) -> AtomicFile.Failure? {
        do {
            try AtomicFile.write(Data([1, 2, 3]), to: url)
            Issue.record("\(url.path) was written")
        } catch let failure as AtomicFile.Failure {
            #expect(failure.path == url.path)
            #expect(failure.description.hasPrefix("\(url.path): \(call): "))
            return failure
        } catch {
            Issue.record("not an AtomicFile.Failure: \(error)")
        }
        return nil
    }

    @Test func temporaryNameIsHiddenInTheSameFolderAndUnique() {
        let first = AtomicFile.temporaryPath(for: "/data/out/clip.wav")
        let second = AtomicFile.temporaryPath(for: "/data/out/clip.wav")
        #expect(first.hasPrefix("/data/out/.clip.wav.tmp-\(getpid())-"))
        #expect(first != second)
        #expect(AtomicFile.temporaryPath(for: "bare.txt").hasPrefix(".bare.txt.tmp-"))
        #expect(AtomicFile.temporaryURL(for: URL(fileURLWithPath: "/a/b.json")).deletingLastPathComponent().path == "/a")
    }

    @Test func writesTheWholeFileAndLeavesNoTemporary() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("out.bin")
        let data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try AtomicFile.write(data, to: url)
        #expect(try Data(contentsOf: url) == data)
        #expect(try Self.names(folder.url) == ["out.bin"])
    }

    @Test func partsAreConcatenated() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let header = Data("RIFF".utf8), empty = Data(), payload = Data([1, 2, 3, 4, 5])
        try header.withUnsafeBytes { h in
            try empty.withUnsafeBytes { e in
                try payload.withUnsafeBytes { p in try AtomicFile.write(parts: [h, e, p], toPath: folder.file("w.wav").path) }
            }
        }
        #expect(try Data(contentsOf: folder.file("w.wav")) == header + payload)
        #expect(try Self.names(folder.url) == ["w.wav"])
    }

    /// The new content replaces the old file whole, by rename: a reader that had the old file open
    /// still reads the complete old content, and nothing of the (longer) old file is left over.
    @Test func replacesAnExistingFileWhole() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("manifest.jsonl")
        let old = Data(String(repeating: "old line\n", count: 1000).utf8)
        try old.write(to: url)
        let reader = try FileHandle(forReadingFrom: url)
        defer { try? reader.close() }
        try AtomicFile.write(Data("new\n".utf8), to: url)
        #expect(try Data(contentsOf: url) == Data("new\n".utf8))
        #expect(try reader.readToEnd() == old)
        #expect(try Self.names(folder.url) == ["manifest.jsonl"])
    }

    /// Writing into a folder that does not exist throws naming the path and the call, and creates nothing.
    @Test func missingFolderThrowsAndLeavesNothing() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let failure = Self.expectFailure(writing: folder.file("missing/out.bin"), in: "open")
        #expect(failure?.reason.contains("No such file") == true)
        #expect(try Self.names(folder.url).isEmpty)
    }

    /// Writing into a folder where files cannot be created throws naming the path and leaves
    /// nothing: a read-only folder for ordinary users; for root (who ignores permissions) procfs,
    /// where nobody can create files.
    @Test func unwritableFolderThrowsAndLeavesNothing() throws {
        guard getuid() == 0 else {
            let folder = try TemporaryFolder(); defer { folder.cleanup() }
            let locked = folder.file("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
            Self.expectFailure(writing: locked.appendingPathComponent("out.bin"), in: "open")
            #expect(try Self.names(locked).isEmpty)
            return
        }
        let proc = URL(fileURLWithPath: "/proc")
        Self.expectFailure(writing: proc.appendingPathComponent("sekit-atomic-test.bin"), in: "open")
        #expect(try Self.names(proc).filter { $0.contains("sekit-atomic-test") }.isEmpty)
    }

    /// A rename that fails (the final name is a non-empty folder) removes the temporary file and
    /// throws naming the path and `rename`; the folder in the way is untouched.
    @Test func failedRenameRemovesTheTemporary() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let inTheWay = folder.file("out.bin")
        try FileManager.default.createDirectory(at: inTheWay, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: inTheWay.appendingPathComponent("inside.txt"))
        Self.expectFailure(writing: inTheWay, in: "rename")
        #expect(try Self.names(folder.url) == ["out.bin"])
        #expect(try Self.names(inTheWay) == ["inside.txt"])
    }

    /// `commit` renames a finished temporary file onto its final name.
    @Test func commitRenamesTheTemporary() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("features.h5")
        let temporary = AtomicFile.temporaryURL(for: url)
        try Data("payload".utf8).write(to: temporary)
        try AtomicFile.commit(temporary, to: url)
        #expect(try Data(contentsOf: url) == Data("payload".utf8))
        #expect(try Self.names(folder.url) == ["features.h5"])
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.commit(temporary, to: url) }   // nothing left to rename
    }

    /// Temporary files of writers that were killed (their process is gone) are removed; those of
    /// live processes and of other outputs stay.
    @Test func staleTemporariesOfDeadWritersAreRemoved() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let dead = 4_194_301  // above the default pid_max: never a live process
        let names = [".out.csv.tmp-\(dead)-3", ".out.csv.tmp-\(getpid())-1", ".out.csv.tmp-1-2", ".other.csv.tmp-\(dead)-1", "out.csv"]
        for name in names { try Data("x".utf8).write(to: folder.file(name)) }
        #expect(AtomicFile.removeStaleTemporaries(in: folder.url, named: "out.csv") == [".out.csv.tmp-\(dead)-3"])
        #expect(try Self.names(folder.url) == names.filter { $0 != ".out.csv.tmp-\(dead)-3" }.sorted())
        #expect(AtomicFile.removeStaleTemporaries(in: folder.url) == [".other.csv.tmp-\(dead)-1"])
    }

    /// On a file system shared by cluster nodes, a dead-looking pid in another host's temporary
    /// name says nothing (that process lives on the other node): such a file is removed only when
    /// untouched for a day. This host's tagged files are judged by their pid.
    @Test func anotherHostsTemporariesStayUnlessADayOld() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let dead = 4_194_301
        let other = AtomicFile.hostTag == "h00000001" ? "h00000002" : "h00000001"
        #expect(AtomicFile.temporaryPath(for: "/x/out.csv").hasSuffix("-" + AtomicFile.hostTag))
        let live = ".out.csv.tmp-\(dead)-1-\(other)", old = ".out.csv.tmp-\(dead)-2-\(other)",
                mine = ".out.csv.tmp-\(dead)-3-\(AtomicFile.hostTag)"
        for name in [live, old, mine] { try Data("x".utf8).write(to: folder.file(name)) }
        let twoDaysAgo = Date().addingTimeInterval(-2 * AtomicFile.foreignStaleSeconds)
        try FileManager.default.setAttributes([.modificationDate: twoDaysAgo], ofItemAtPath: folder.file(old).path)
        #expect(Set(AtomicFile.removeStaleTemporaries(in: folder.url, named: "out.csv")) == [old, mine])
        #expect(try Self.names(folder.url) == [live])
    }
}
