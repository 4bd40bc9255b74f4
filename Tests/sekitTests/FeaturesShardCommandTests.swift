import Foundation
import Testing

/// `sekit features --shard`, `sekit features merge` and `sekit synthesize --shard` through the real
/// binary on a corpus of real speech.
@Suite(.serialized, .needsFixtures)
struct FeaturesShardCommandTests {
    /// A fresh folder with 12 one-second clips mixed from the fixtures (`corpus`) and their
    /// unsharded features (`whole.h5`, irm target, gzip).
    static func corpus() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let f = GoldenCorpus.fixtures.path
        try expectSuccess(["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--count", "12", "--seconds", "1",
                           "--split", "train=0.75,test=0.25", "--seed", "5", "--out", "corpus", "--no-catalog"], in: folder)
        try expectSuccess(features(["--out", "whole.h5"]), in: folder)
        return folder
    }

    static func features(_ extra: [String]) -> [String] {
        ["features", "--corpus", "corpus", "--targets", "clean,irm", "--compression", "gzip:2", "--jobs", "2", "--no-catalog"] + extra
    }

    @discardableResult
    static func expectSuccess(_ arguments: [String], in folder: URL) throws -> SEKitBinary.Result {
        let result = try SEKitBinary.run(arguments, currentDirectory: folder)
        #expect(result.status == 0, "sekit \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    @Test func shardsMergeIntoTheUnshardedFile() throws {
        let folder = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 1...3 {
            let exported = try Self.expectSuccess(Self.features(["--out", "s\(index).h5", "--shard", "\(index)/3"]), in: folder)
            #expect(exported.stdout.contains("(shard \(index)/3)"))
        }
        let copied = try Self.expectSuccess(["features", "merge", "copy.h5", "s2.h5", "s3.h5", "s1.h5", "--copy"], in: folder)
        #expect(copied.stdout.contains("shards: 3, clips: 12"))
        #expect(copied.stderr.contains("features merge: 12/12 clips"), "progress on stderr: \(copied.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("copy.h5"))
                    == Data(contentsOf: folder.appendingPathComponent("whole.h5")),
                "without a catalogue, the copy is the unsharded export byte for byte")
        let merged = try Self.expectSuccess(["features", "merge", "merged.h5", "s1.h5", "s2.h5", "s3.h5"], in: folder)
        #expect(merged.stdout.contains("virtual datasets"))
        // The merged file feeds synthesize like the unsharded one.
        try Self.expectSuccess(["synthesize", "--features", "merged.h5", "--dataset", "irm", "--out", "from-merged", "--no-catalog"],
                               in: folder)
        try Self.expectSuccess(["synthesize", "--features", "whole.h5", "--dataset", "irm", "--out", "from-whole", "--no-catalog"],
                               in: folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("from-whole").path)
            .filter { $0.hasSuffix(".wav") }
        #expect(names.count == 12)
        for name in names {
            #expect(try Data(contentsOf: folder.appendingPathComponent("from-merged/" + name))
                    == Data(contentsOf: folder.appendingPathComponent("from-whole/" + name)), "\(name)")
        }

        let missing = try SEKitBinary.run(["features", "merge", "out.h5", "s1.h5", "s3.h5"], currentDirectory: folder)
        #expect(missing.status != 0 && missing.stderr.contains("missing shard 2/3"), "\(missing.stderr)")
        let exists = try SEKitBinary.run(["features", "merge", "merged.h5", "s1.h5", "s2.h5", "s3.h5"], currentDirectory: folder)
        #expect(exists.status != 0 && exists.stderr.contains("--overwrite"), "\(exists.stderr)")
        let unsharded = try SEKitBinary.run(["features", "merge", "out.h5", "s1.h5", "whole.h5", "s3.h5"], currentDirectory: folder)
        #expect(unsharded.status != 0 && unsharded.stderr.contains("whole.h5: not a shard"), "\(unsharded.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.h5").path))
        let badShard = try SEKitBinary.run(Self.features(["--out", "bad.h5", "--shard", "4/3"]), currentDirectory: folder)
        #expect(badShard.status != 0 && badShard.stderr.contains("--shard"), "\(badShard.stderr)")
    }

    /// Three shards of one synthesize command, run at the same time into one folder, write the
    /// unsharded command's WAVs, byte for byte.
    @Test func synthesizeShardsShareTheirFolder() throws {
        let folder = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: folder) }
        let command = ["synthesize", "--features", "whole.h5", "--dataset", "irm", "--format", "pcm16", "--jobs", "1", "--no-catalog"]
        try Self.expectSuccess(command + ["--out", "whole"], in: folder)
        let results = SendableBox<[Int32]>([0, 0, 0])
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            let result = try? SEKitBinary.run(command + ["--out", "sharded", "--shard", "\(index + 1)/3"], currentDirectory: folder)
            results.update { $0[index] = result?.status ?? -1 }
        }
        #expect(results.value == [0, 0, 0], "every shard finishes")
        let fm = FileManager.default
        let whole = try fm.contentsOfDirectory(atPath: folder.appendingPathComponent("whole").path).filter { $0.hasSuffix(".wav") }.sorted()
        let sharded = try fm.contentsOfDirectory(atPath: folder.appendingPathComponent("sharded").path)
            .filter { $0.hasSuffix(".wav") }.sorted()
        #expect(whole.count == 12 && sharded == whole)
        for name in whole {
            #expect(try Data(contentsOf: folder.appendingPathComponent("whole/" + name))
                        == Data(contentsOf: folder.appendingPathComponent("sharded/" + name)))
        }
    }
}

/// A value shared between threads under a lock.
final class SendableBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
