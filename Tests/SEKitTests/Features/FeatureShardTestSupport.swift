import Foundation
@testable import SEKit
@testable import SEKitSignal

/// A small corpus of real speech mixed in two shards into one folder, exported whole and in
/// shards, for the tests of `features --shard` and `features merge`.
struct ShardedExport {
    let folder: TemporaryFolder
    let corpus: URL
    let whole: URL
    let shards: [URL]
    let catalog: Catalog?
    /// The shards' `features` runs, in shard order (empty without a catalogue).
    let shardRuns: [RunID]

    /// Mixes 12 one-second clips (seed `seed`; train 0.75, test 0.25) into `folder/name` in two shards.
    static func mix(in folder: TemporaryFolder, name: String = "corpus", seed: UInt64 = 7) throws -> URL {
        let corpus = folder.file(name)
        var mix = MixOptions()
        mix.count = 12; mix.seconds = 1; mix.seed = seed
        mix.split = try SplitSpec(parsing: "train=0.75,test=0.25")
        let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path])
        for index in 1...2 {
            _ = try MixRun.prepare(options: mix, inputs: inputs, output: corpus, shard: Shard(index: index, count: 2), jobs: 2).run()
        }
        return corpus
    }

    /// Exports the corpus whole (`whole.h5`) and in `count` shards (`shard-I-of-N.h5`) with
    /// `options`, recorded in a catalogue when `catalogued` (so that run ids are UUIDs).
    static func make(options: FeatureExportOptions = FeatureExportOptions(), count: Int = 3,
                     catalogued: Bool = true) throws -> ShardedExport {
        let folder = try TemporaryFolder()
        let corpus = try mix(in: folder)
        let catalog = catalogued ? try Catalog.open(at: folder.file("catalog.sqlite")) : nil
        let context = RunContext(catalog: catalog, commandLine: ["sekit", "features"])
        let whole = folder.file("whole.h5")
        _ = try FeaturesJob.run(.init(corpus: corpus, output: whole, options: options), context: context)
        var shards: [URL] = [], runs: [RunID] = []
        for index in 1...count {
            var sharded = options
            sharded.shard = Shard(index: index, count: count)
            let url = folder.file(shardName(index, count))
            let (_, run) = try FeaturesJob.run(.init(corpus: corpus, output: url, options: sharded), context: context)
            shards.append(url)
            if let id = run.id { runs.append(id) }
        }
        return ShardedExport(folder: folder, corpus: corpus, whole: whole, shards: shards, catalog: catalog, shardRuns: runs)
    }

    static func shardName(_ index: Int, _ count: Int) -> String { "shard-\(index)-of-\(count).h5" }

    /// The file's bytes with every UUID (the run-id attributes) replaced by the zero UUID; Latin-1
    /// maps bytes one to one, so the layout is kept.
    static func bytesWithoutRunIDs(_ url: URL) throws -> Data {
        let text = String(data: try Data(contentsOf: url), encoding: .isoLatin1)!
        let uuid = try NSRegularExpression(pattern: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
        let blanked = uuid.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                    withTemplate: "00000000-0000-0000-0000-000000000000")
        return blanked.data(using: .isoLatin1)!
    }
}
