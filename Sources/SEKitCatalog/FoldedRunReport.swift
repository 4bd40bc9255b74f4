import Foundation

/// One run folded from shard runs by `Catalog/merge(_:onConflict:folding:)`.
public struct FoldedRunReport: Sendable, Codable, Equatable {
    public var id: String
    public var kind: String
    public var name: String
    /// How many shard runs it folds.
    public var shards: Int
    /// The shard runs' ids, shard 1 first (they are no longer in the catalogue).
    public var shardRuns: [String]
    /// Failed or killed attempts of shards that a later run finished, folded away with them.
    public var supersededAttempts: [String]
    /// False when an earlier merge had folded the same shards (nothing new).
    public var new: Bool
}
