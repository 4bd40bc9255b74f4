import Foundation

/// `sekit catalog merge`: catalogues (a cluster's shard catalogues, or another machine's) merged
/// into one, each command's shard runs folded into the run a single process would have recorded.
/// The entry point has the shape of every command's; the merge and the fold are `Catalog`'s
/// (`Catalog.merge(_:onConflict:folding:)`, `Catalog.mergeIntoNew(at:_:onConflict:folding:)`),
/// with a score run's aggregates recomputed by Scoring (`ShardFolding.recomputingScores`).
public enum CatalogMergeJob {
    /// What to merge, and where.
    public struct Request: Sendable {
        /// The catalogue merged into; created (complete or not at all) when it does not exist.
        public var output: URL
        /// The catalogues merged, in order.
        public var inputs: [URL]
        /// What to do with a row whose key the output holds with different content.
        public var onConflict: Catalog.MergeConflictPolicy
        /// Whether each command's shard runs are folded into one run (`--no-fold` turns it off).
        public var foldShards: Bool

        public init(output: URL, inputs: [URL], onConflict: Catalog.MergeConflictPolicy = .error, foldShards: Bool = true) {
            self.output = output; self.inputs = inputs; self.onConflict = onConflict; self.foldShards = foldShards
        }
    }

    /// Merges `request.inputs` into `request.output`: into the existing catalogue when there is one,
    /// else into a new one built under a temporary name and renamed when complete.
    /// - Throws: `RunsError` naming the file at fault (a shard mismatch, an input that is no
    ///   catalogue, conflicting rows under `Catalog.MergeConflictPolicy.error`).
    public static func run(_ request: Request) throws -> Catalog.MergeReport {
        let folding: ShardFolding? = request.foldShards ? .recomputingScores : nil
        guard FileManager.default.fileExists(atPath: request.output.path) else {
            return try Catalog.mergeIntoNew(at: request.output, request.inputs, onConflict: request.onConflict, folding: folding)
        }
        return try Catalog.open(at: request.output, create: true).merge(request.inputs, onConflict: request.onConflict, folding: folding)
    }
}
