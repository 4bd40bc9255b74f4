import Foundation

/// Where a mixed corpus keeps its files (a public layout; see README "sekit mix"):
/// `OUT/noisy/ID.wav`, `OUT/clean/ID.wav`, `OUT/noise/ID.wav`, `OUT/manifest.jsonl`
/// (`manifest-shard-I-of-N.jsonl` for a shard), `OUT/mix.json` (options and sources), and
/// `OUT/.sekit/` (the resume journal).
public struct MixCorpusLayout: Sendable {
    public let root: URL
    public let shard: Shard

    public init(root: URL, shard: Shard = .whole) { self.root = root; self.shard = shard }

    public var noisyFolder: URL { root.appendingPathComponent("noisy") }
    public var cleanFolder: URL { root.appendingPathComponent("clean") }
    public var noiseFolder: URL { root.appendingPathComponent("noise") }
    public var stateFolder: URL { root.appendingPathComponent(".sekit") }
    public var specFile: URL { root.appendingPathComponent("mix.json") }

    private var shardSuffix: String { shard.fileSuffix }
    public var manifest: URL { root.appendingPathComponent("manifest\(shardSuffix).jsonl") }
    public var journal: URL { stateFolder.appendingPathComponent("journal\(shardSuffix).jsonl") }
    /// Which catalogue run records this shard (so a resumed or repeated mix continues that run).
    public var catalogRunFile: URL { stateFolder.appendingPathComponent("catalog-run\(shardSuffix).json") }
    /// `OUT/.sekit/lock[-shard-I-of-N]`: held (``OutputLock``) by the one process writing this shard.
    public var lockFile: URL { stateFolder.appendingPathComponent("lock\(shardSuffix)") }

    /// The SNR subset rule the corpus's `mix.json` records (`snr_subsets`); nil when it records none
    /// (a re-rendered or older mix) or there is no readable `mix.json`.
    public var recordedSNRSubsetRule: SNRSubsetRule? {
        struct Recorded: Decodable {
            var snrSubsets: SNRSubsetRule?
            enum CodingKeys: String, CodingKey { case snrSubsets = "snr_subsets" }
        }
        guard let data = FileManager.default.contents(atPath: specFile.path) else { return nil }
        return (try? JSONDecoder().decode(Recorded.self, from: data))?.snrSubsets
    }

    /// Relative paths of a clip's stems, as written in the manifest.
    public static func relativePaths(clipID: String) -> (noisy: String, clean: String, noise: String) {
        ("noisy/\(clipID).wav", "clean/\(clipID).wav", "noise/\(clipID).wav")
    }
}
