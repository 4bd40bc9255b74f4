import Foundation

/// Names of the layout's additions for sharded exports (`sekit features --shard i/N`) and their
/// merges (`sekit features merge`). An unsharded export has none of them.
extension FeatureFileLayout {
    /// Root attribute of a shard's file: the shard, `"i/N"` (string).
    public static let shardAttribute = "shard"
    /// Root attribute of a shard's file: SHA-256 (hex) of the corpus's `mix.json` when it was
    /// exported, empty when the corpus has none; shards of different corpora are never merged.
    public static let corpusMixSHA256Attribute = "corpus_mix_sha256"
    /// `/index/clip_index` (int64) of a shard's file: each clip's index in its corpus (the
    /// manifest's `index`), which places it among the other shards' clips.
    public static let clipIndexDataset = "clip_index"
    /// Root attribute of a merged (virtual) file: how many shards it joins (int).
    public static let shardsAttribute = "shards"
    /// Root attribute of a merged (virtual) file: `"virtual"`.
    public static let mergedAttribute = "merged"
    /// The `merged` value of a file whose streams are HDF5 virtual datasets over the shards' files.
    public static let mergedVirtual = "virtual"
    /// Root attributes that differ between the shards of one export by design (the run ids
    /// differ per shard, the mix run ids when the catalogue changed between shards).
    public static let shardSpecificAttributes: Set<String> = [
        shardAttribute, FeatureFileAttributes.Name.featuresRunID, FeatureFileAttributes.Name.mixRunID,
    ]
}
