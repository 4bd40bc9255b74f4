import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `sekit features merge` refuses shards that do not belong together, naming the file, and
/// writes nothing.
@Suite(.needsFixtures)
struct FeatureMergeRefusalTests {
    /// Runs a virtual merge of `shards` into `folder/out.h5` and returns its error.
    func refusal(_ shards: [URL], in export: ShardedExport, overwrite: Bool = false) throws -> Error {
        var options = FeatureMerge.Options()
        options.overwrite = overwrite
        do {
            _ = try FeatureMerge.run(output: export.folder.file("out.h5"), shards: shards, options: options)
        } catch {
            let left = try FileManager.default.contentsOfDirectory(atPath: export.folder.url.path)
                .filter { $0.contains("out.h5") && !$0.hasSuffix(".lock") }
            #expect(left.isEmpty, "nothing is written: \(left)")
            return error
        }
        Issue.record("merged \(shards.map(\.lastPathComponent)) without a word")
        return CancellationError()
    }

    /// Exports shard `shard` of `corpus` with `options` to `name` (no catalogue).
    func exportShard(_ shard: Shard, of corpus: URL, to name: String, in export: ShardedExport,
                     options: FeatureExportOptions = FeatureExportOptions()) throws -> URL {
        var options = options
        options.shard = shard
        let url = export.folder.file(name)
        _ = try FeatureExport.run(corpus: corpus, output: url, options: options)
        return url
    }

    @Test func filesThatAreNotShardsOfOneExportAreRefused() throws {
        let export = try ShardedExport.make(catalogued: false)
        defer { export.folder.cleanup() }
        let (s1, s2, s3) = (export.shards[0], export.shards[1], export.shards[2])
        let fm = FileManager.default

        let text = export.folder.file("notes.h5")
        try Data("not HDF5\n".utf8).write(to: text)
        let notHDF5 = "\(try refusal([s1, text, s3], in: export))"
        #expect(notHDF5.hasPrefix("\(text.path): not a SEKit feature file: H5Fopen failed"), "\(notHDF5)")
        let unsharded = "\(try refusal([s1, export.whole, s3], in: export))"
        #expect(unsharded.hasPrefix("\(export.whole.path): not a shard") && unsharded.contains("unsharded"), "\(unsharded)")
        #expect(try refusal([s1, s2, s3, s2], in: export) as? FeatureFileError == .sameFileTwice(path: s2.path))
        let again = export.folder.file("again.h5")
        try fm.copyItem(at: s2, to: again)
        #expect(try refusal([s1, s2, again, s3], in: export) as? FeatureFileError
                == .duplicateShard(path: again.path, other: s2.path, shard: "2/3"))
        let missing = "\(try refusal([s3, s1], in: export))"
        #expect(missing == "missing shard 2/3 (given: 1/3, 3/3)", "\(missing)")

        let quarter = try exportShard(Shard(index: 2, count: 4), of: export.corpus, to: "quarter.h5", in: export)
        let count = "\(try refusal([s1, quarter, s3], in: export))"
        #expect(count.hasPrefix(quarter.path) && count.contains("shard 2/4") && count.contains("shard 1/3"), "\(count)")
        var log = FeatureExportOptions()
        log.feature = .log1p
        let other = try exportShard(Shard(index: 2, count: 3), of: export.corpus, to: "log1p.h5", in: export, options: log)
        let parameters = "\(try refusal([s1, other, s3], in: export))"
        #expect(parameters.hasPrefix(other.path) && parameters.contains("attribute feature = 'log1p'"), "\(parameters)")

        let elsewhere = try ShardedExport.mix(in: export.folder, name: "elsewhere", seed: 8)
        let foreign = try exportShard(Shard(index: 2, count: 3), of: elsewhere, to: "foreign.h5", in: export)
        let corpus = "\(try refusal([s1, foreign, s3], in: export))"
        #expect(corpus.hasPrefix(foreign.path) && corpus.contains("different corpus") && corpus.contains("elsewhere"), "\(corpus)")
        // The same folder mixed again with another seed: the path agrees, mix.json does not.
        try fm.removeItem(at: elsewhere)
        try fm.moveItem(at: export.corpus, to: export.folder.file("corpus-first"))
        _ = try ShardedExport.mix(in: export.folder, name: "corpus", seed: 9)
        let remixed = try exportShard(Shard(index: 2, count: 3), of: export.corpus, to: "remixed.h5", in: export)
        let identity = "\(try refusal([s1, remixed, s3], in: export))"
        #expect(identity.hasPrefix(remixed.path) && identity.contains("mix.json SHA-256"), "\(identity)")

        let merged = export.folder.file("merged.h5")
        _ = try FeatureMerge.run(output: merged, shards: export.shards, options: FeatureMerge.Options())
        let ofMerged = "\(try refusal([s1, merged, s3], in: export))"
        #expect(ofMerged.hasPrefix("\(merged.path): not a shard") && ofMerged.contains("merged"), "\(ofMerged)")
    }

    @Test func anExistingOutputIsKeptUnlessOverwriteAndNeverOneOfTheShards() throws {
        let export = try ShardedExport.make(catalogued: false)
        defer { export.folder.cleanup() }
        let output = export.folder.file("out.h5")
        try Data("keep me".utf8).write(to: output)
        do {
            _ = try FeatureMerge.run(output: output, shards: export.shards, options: FeatureMerge.Options())
            Issue.record("an existing output was replaced")
        } catch {
            #expect(error as? FeatureFileError == .outputExists(path: output.path))
        }
        #expect(try Data(contentsOf: output) == Data("keep me".utf8))
        var options = FeatureMerge.Options()
        options.overwrite = true
        _ = try FeatureMerge.run(output: output, shards: export.shards, options: options)
        #expect(try FeatureFileReader(url: output).clips.count == 12)
        do {
            _ = try FeatureMerge.run(output: export.shards[0], shards: export.shards, options: options)
            Issue.record("a shard was overwritten by its merge")
        } catch {
            #expect(error as? FeatureFileError == .outputIsAShard(path: export.shards[0].path))
        }
    }
}
