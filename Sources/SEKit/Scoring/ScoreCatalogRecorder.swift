import Foundation

/// Records a scoring in the catalogue: a `score` run named by the checkpoint, with its
/// parameters, one `clip_scores` row per clip and metric (failures with their reason), and the
/// aggregates in `run_metrics` (subset `''` for all clips, `snr=5`, `split=test`, ...).
///
/// When the pairs come from a catalogued mix corpus, clip ids are the catalogue's clip ids
/// (`MIXRUN/CLIP`) and the run's parent is the mix run, so scores join to clips, SNRs and sources.
public struct ScoreCatalogRecorder: Sendable {
    public let catalog: Catalog
    public let runID: RunID
    /// Catalogue clip id by clip index, for pairs from a catalogued corpus.
    let mixRunByShard: [MixCatalogRunState]

    /// Starts the `score` run.
    /// - Parameters:
    ///   - checkpoint: the model checkpoint or system scored (the run's name, and param `checkpoint`).
    ///   - corpus: the mixed corpus scored, if any (links the run to its mix run).
    public static func begin(catalog: Catalog, checkpoint: String, commandLine: [String], params: [String: String],
                             corpus: URL?) throws -> ScoreCatalogRecorder {
        let here = catalog.url.standardizedFileURL.path
        let states = corpus.map { MixCatalogRunState.all(in: $0).filter { $0.catalog == here } } ?? []
        var values = params
        values["checkpoint"] = checkpoint
        let parent = Set(states.map(\.runID)).count == 1 ? states[0].runID : nil
        if states.count > 1 { values["mix_runs"] = states.map(\.runID.rawValue).joined(separator: ",") }
        let run = try catalog.beginRun(kind: .score, name: checkpoint, commandLine: commandLine, params: values, parent: parent)
        return ScoreCatalogRecorder(catalog: catalog, runID: run, mixRunByShard: states)
    }

    /// The id a clip has in the catalogue: `MIXRUN/CLIP` when its corpus was catalogued, else the pair's id.
    func catalogClipID(_ pair: ScorePair) -> String {
        if let index = pair.corpusIndex, let state = mixRunByShard.first(where: { $0.shard.contains(index) }) {
            return MixCatalogRecorder.catalogClipID(run: state.runID, clipID: pair.clipID)
        }
        return pair.clipID
    }

    /// Records per-clip scores and aggregates and finishes the run (`failed` with a count when
    /// some clips could not be scored; their rows carry the reason).
    public func finish(clips: [ClipScores], summary: [ScoreAggregate], metrics: [Metric]) throws {
        var rows: [ClipScoreRecord] = []
        for clip in clips {
            let id = catalogClipID(clip.pair)
            for metric in metrics {
                if let error = clip.error {
                    rows.append(ClipScoreRecord(runID: runID, clipID: id, metric: metric.rawValue, value: nil, error: error))
                } else if let value = clip.enhanced[metric] {
                    rows.append(ClipScoreRecord(runID: runID, clipID: id, metric: metric.rawValue, value: value,
                                                noisyValue: clip.noisy[metric]))
                }
            }
        }
        try catalog.insertClipScores(rows)
        try catalog.insertRunMetrics(summary.map { aggregate in
            RunMetricRecord(runID: runID, metric: aggregate.metric, subset: aggregate.subset == "all" ? "" : aggregate.subset,
                            mean: aggregate.mean, std: Self.finite(aggregate.std), ci95Low: Self.finite(aggregate.ci95Low),
                            ci95High: Self.finite(aggregate.ci95High), n: aggregate.n)
        })
        let failed = clips.filter { $0.error != nil }.count
        try catalog.setParams(["clips": "\(clips.count)", "clips_failed": "\(failed)"], of: runID)
        // A run with unscorable clips still finished its work; the count says what is missing.
        try catalog.finishRun(runID)
    }

    static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

    /// Ends the run as failed (scoring stopped before it finished).
    public func fail(_ error: Error) {
        try? catalog.finishRun(runID, status: .failed, error: "\(error)")
    }
}
