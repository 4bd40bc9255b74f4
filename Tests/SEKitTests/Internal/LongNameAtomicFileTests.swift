import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// A valid file name of up to 255 bytes is written atomically although its temporary name adds a
/// suffix (issue 26, item 22: names over about 220 bytes failed on the temporary name).
@Suite struct LongNameAtomicFileTests {
    @Test func namesUpToTheFileSystemLimitAreWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        for length in [200, 211, 212, 240, 255] {
            let name = String(repeating: "a", count: length - 4) + ".wav"
            try AtomicFile.write(Data([1, 2, 3]), to: folder.file(name))
            #expect(FileManager.default.contents(atPath: folder.file(name).path) == Data([1, 2, 3]), "\(length)")
            let temporary = (AtomicFile.temporaryPath(for: folder.file(name).path) as NSString).lastPathComponent
            #expect(temporary.utf8.count <= 255, "\(length): \(temporary.utf8.count) bytes")
        }
        // Multi-byte characters are never cut in half.
        let wide = String(repeating: "é", count: 120) + ".wav"
        try AtomicFile.write(Data([4]), to: folder.file(wide))
        #expect(try AtomicFileTests.names(folder.url).contains(wide))
        #expect(try AtomicFileTests.names(folder.url).allSatisfy { !$0.contains(".tmp-") })
    }

    @Test func aStaleTemporaryOfALongNameIsRemovedByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let name = String(repeating: "b", count: 250) + ".wav"
        // A temporary file of this name left by a process that no longer exists (pid above pid_max).
        let temporary = "." + AtomicFile.temporaryStem(name) + ".tmp-4194305-1-" + AtomicFile.hostTag
        try Data([1]).write(to: folder.file(temporary))
        #expect(AtomicFile.removeStaleTemporaries(in: folder.url, named: name) == [temporary])
    }

    @Test func theLockOfALongOutputNameCanBeTaken() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let output = folder.file(String(repeating: "c", count: 252) + ".h5")
        let sharded = OutputLock.lockFile(besideFolder: output, shard: Shard(index: 3, count: 16))
        for lockFile in [OutputLock.lockFile(besideFile: output), sharded] {
            #expect(lockFile.lastPathComponent.utf8.count <= 255)
            let lock = try OutputLock(output: output.path, lockFile: lockFile)
            #expect(FileManager.default.fileExists(atPath: lock.lockFile.path))
        }
        // Names that fit keep their lock file name.
        #expect(OutputLock.lockFile(besideFile: folder.file("f.h5")).lastPathComponent == ".f.h5.lock")
    }
}
