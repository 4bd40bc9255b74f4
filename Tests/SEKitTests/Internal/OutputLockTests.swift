import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// One writer per output: a second writer is refused at once, naming who holds it.
@Suite struct OutputLockTests {
    @Test func aSecondClaimIsRefusedNamingTheHolderAndFreedOnRelease() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let file = folder.file("x/.out.lock")
        var first: OutputLock? = try OutputLock(output: "out", lockFile: file)
        do {
            _ = try OutputLock(output: "out", lockFile: file)
            Issue.record("claimed twice")
        } catch let busy as OutputLock.Busy {
            #expect(busy.pid == Int(getpid()) && busy.host == ProcessInfo.processInfo.hostName)
            #expect(busy.description.hasPrefix("out is being written by process \(getpid()) on "))
        }
        #expect(first != nil)
        first = nil
        // Issue 40 item 18: a released claim leaves no lock file beside the output.
        #expect(!FileManager.default.fileExists(atPath: file.path), "the lock file outlived its claim")
        var second: OutputLock? = try OutputLock(output: "out", lockFile: file)
        #expect(FileManager.default.fileExists(atPath: file.path) && second != nil)
        second = nil
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// A writer that opened the lock file just before its owner removed it must not think it holds the
    /// claim while a third writer locks the new file at the path.
    @Test func aLockFileRemovedBeforeItIsLockedIsNotAClaim() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let file = folder.file(".out.lock")
        let stale = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(stale) }
        unlink(file.path)
        #expect(flock(stale, LOCK_EX | LOCK_NB) == 0, "the removed file can still be locked")
        // The unlinked file is locked by `stale`; the path names a new file, which a claim takes.
        let claim = try OutputLock(output: "out", lockFile: file)
        #expect(throws: OutputLock.Busy.self) { try OutputLock(output: "out", lockFile: file) }
        withExtendedLifetime(claim) {}
    }

    @Test func aMixShardIsWrittenByOneProcessButShardsShareTheFolder() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let inputs = try GeneratedSources.mixInputs(in: folder)
        var options = MixOptions()
        options.count = 4; options.seconds = 0.25
        let out = folder.file("corpus")
        let running = try MixRun.prepare(options: options, inputs: inputs, output: out, jobs: 1)
        #expect(throws: OutputLock.Busy.self) { try MixRun.prepare(options: options, inputs: inputs, output: out, jobs: 1) }
        let half = try MixRun.prepare(options: options, inputs: inputs, output: out, shard: try Shard(parsing: "1/2"), jobs: 1)
        #expect(throws: OutputLock.Busy.self) {
            try MixRun.prepare(options: options, inputs: inputs, output: out, shard: try Shard(parsing: "1/2"), jobs: 1)
        }
        _ = try MixRun.prepare(options: options, inputs: inputs, output: out, shard: try Shard(parsing: "2/2"), jobs: 1)
        #expect(try running.run().written == 4 && half.layout.shard != .whole)
    }

    @Test func anEnhanceShardIsWrittenByOneProcessButShardsShareTheFolder() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let inputs = try GeneratedSources.mixInputs(in: folder)
        var options = MixOptions()
        options.count = 4; options.seconds = 1
        let corpus = folder.file("corpus")
        #expect(try MixRun.prepare(options: options, inputs: inputs, output: corpus, jobs: 1).run().written == 4)
        let out = folder.file("enhanced")
        func request(_ shard: String) throws -> EnhanceJob.Request {
            var request = EnhanceJob.Request(method: .oracle(.irm), source: .corpus(corpus, split: nil), output: out)
            request.shard = try Shard(parsing: shard)
            return request
        }
        // Shard 1/2 is being written: a second writer of it is refused, shard 2/2 writes beside it.
        let shard = try OutputLock(output: out.path, lockFile: OutputLock.lockFile(besideFolder: out, shard: try Shard(parsing: "1/2")))
        #expect(throws: OutputLock.Busy.self) { try EnhanceJob.run(try request("1/2"), context: .unrecorded) }
        #expect(try EnhanceJob.run(try request("2/2"), context: .unrecorded).result.written == 2)
        // The unsharded output keeps its one lock.
        let whole = try OutputLock(output: out.path, lockFile: OutputLock.lockFile(besideFile: out))
        #expect(throws: OutputLock.Busy.self) { try EnhanceJob.run(try request("1/1"), context: .unrecorded) }
        withExtendedLifetime((shard, whole)) {}
    }

    @Test func featureFilesSynthesisFoldersAndPerClipCSVsAreClaimed() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let features = folder.file("f.h5"), csv = folder.file("scores.csv"), out = folder.file("enhanced")
        let held = try [features, csv, out].map { try OutputLock(output: $0.path, lockFile: OutputLock.lockFile(besideFile: $0)) }
        #expect(throws: OutputLock.Busy.self) {
            try FeaturesJob.run(.init(corpus: folder.url, output: features, options: FeatureExportOptions()), context: .unrecorded)
        }
        #expect(throws: OutputLock.Busy.self) {
            try SynthesizeJob.run(.init(features: features, dataset: "irm", output: out), context: .unrecorded)
        }
        try FileManager.default.createDirectory(at: folder.file("ref"), withIntermediateDirectories: true)
        var request = ScoreJob.Request(pairing: .folders(reference: folder.file("ref"), enhanced: folder.file("ref"), noisy: nil),
                                       metrics: [.snr], checkpoint: "x")
        request.perClipCSV = csv
        try AudioWriter.write(AudioBuffer(samples: [0.1, -0.1, 0.2, 0.05], sampleRate: 16_000), to: folder.file("ref/a.wav"),
                              format: .wavPCM16)
        #expect(throws: OutputLock.Busy.self) { try ScoreJob.run(request, context: .unrecorded) }
        #expect(held.count == 3)
    }
}
