import Foundation

extension ShardFolding {
    /// The fold `sekit catalog merge` does: a folded score run's `run_metrics` recomputed from its
    /// `clip_scores` in scoring order (``RecordedScores``), by the code `sekit score` aggregates with,
    /// so they equal a single process's to the last bit.
    public static let recomputingScores = ShardFolding { kind, run, session in
        if kind == .score { try RecordedScores.recomputeRunMetrics(session, run: run) }
    }
}
