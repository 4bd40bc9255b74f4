import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// A merged feature file whose shard is missing or replaced: `FeatureFileCheck` (sekit features
/// check) names every mapping onto it, and the reader refuses the file instead of reading zeros.
@Suite(.needsFixtures)
struct FeatureFileCheckTests {
    @Test func aMissingOrReplacedShardIsNamedAndTheReaderRefusesTheFile() throws {
        var options = FeatureExportOptions()
        options.targets = [.irm]
        let export = try ShardedExport.make(options: options, catalogued: false)
        defer { export.folder.cleanup() }
        let merged = export.folder.file("merged.h5")
        _ = try FeatureMerge.run(output: merged, shards: export.shards, options: FeatureMerge.Options())
        let sound = try FeatureFileCheck.run(merged)
        #expect(sound.isSound && sound.clips == 12 && sound.streams == ["irm", "noisy"], "\(sound.text)")
        #expect(sound.mappings.count == 6 && sound.shardFiles == export.shards.map(\.path).sorted())
        #expect(sound.text.hasSuffix("feature file is sound\n"))
        let ordinary = try FeatureFileCheck.run(export.whole)
        #expect(ordinary.isSound && ordinary.mappings.isEmpty)

        // Shard 2 moved away: both streams' rows from it are named; the reader refuses the file.
        let second = export.shards[1], aside = export.folder.file("aside.h5")
        try FileManager.default.moveItem(at: second, to: aside)
        let missing = try FeatureFileCheck.run(merged)
        #expect(!missing.isSound && missing.problems.count == 2, "\(missing.text)")
        let rows = try #require(missing.mappings.first { $0.problem != nil && $0.stream == "noisy" })
        #expect(missing.problems.contains("stream 'noisy' rows \(rows.firstRow)..<\(rows.firstRow + rows.rows): shard \(second.path): "
            + "the shard file is missing"), "\(missing.problems)")
        do {
            _ = try FeatureFileReader(url: merged)
            Issue.record("a merged file with a missing shard was opened")
        } catch {
            #expect(error.code == "missing-shard" && error.description.contains(second.path), "\(error)")
        }

        // Another shard's file under its name (the same size, other clips): refused too.
        try FileManager.default.copyItem(at: export.shards[0], to: second)
        let replaced = try FeatureFileCheck.run(merged)
        #expect(replaced.problems.count == 2 && replaced.problems.allSatisfy { $0.contains("another shard's or another export's file") },
                "\(replaced.problems)")
        #expect(throws: FeatureFileError.self) { _ = try FeatureFileReader(url: merged) }

        try FileManager.default.removeItem(at: second)
        try FileManager.default.moveItem(at: aside, to: second)
        #expect(try FeatureFileCheck.run(merged).isSound)
        #expect(try FeatureFileReader(url: merged).clips.count == 12)
    }
}
