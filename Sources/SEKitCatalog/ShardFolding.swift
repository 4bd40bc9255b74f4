import Foundation
import SEKitSignal

/// How a merge folds shard runs (`Catalog.merge(_:onConflict:folding:)`): what a folded run of
/// each kind derives from its rows beyond what the fold itself recomputes (a mix's `audio_seconds`).
///
/// The folder that defines a kind's aggregates supplies them, so that the fold, which every command's
/// runs go through, depends on none of those folders: SEKit's Scoring gives `recomputingScores` (a
/// score run's `run_metrics`), which `sekit catalog merge` uses (`CatalogMergeJob`).
public struct ShardFolding: Sendable {
    /// Recomputes the derived values of the folded run `run`, of kind `kind`, in the fold's last
    /// transaction (after its rows are all in, before it is marked finished).
    let recompute: @Sendable (_ kind: RunKind, _ run: RunID, _ session: CatalogSession) throws -> Void

    package init(recompute: @escaping @Sendable (_ kind: RunKind, _ run: RunID, _ session: CatalogSession) throws -> Void) {
        self.recompute = recompute
    }
}
