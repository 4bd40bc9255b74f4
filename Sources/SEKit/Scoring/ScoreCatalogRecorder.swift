import Foundation

/// Records a scoring in the catalogue: a `score` run named by the checkpoint, with its
/// parameters, one `clip_scores` row per clip and metric (failures with their reason), and the
/// aggregates in `run_metrics` (subset `''` for all clips, `snr=5`, `split=test`, ...).
///
/// When the pairs come from a catalogued mix corpus, clip ids are the catalogue's clip ids
/// (`MIXRUN/CLIP`) and the run's parent is the mix run, so scores join to clips, SNRs and sources.
struct ScoreCatalogRecorder: Sendable {
    let run: RecordedRun
    /// The mix runs of the scored corpus (one per shard), for clip ids: those recorded in this
    /// catalogue, else those recorded in another (`ScoredCorpus.corpusMixRunsKey`).
    let mixRunByShard: [MixCatalogRunState]
    /// Clips per archive shard when the corpus was mixed as archives: a command shard of such a mix
    /// made whole archive shards (``MixArchiveRequest/layout(clipCount:shard:)``), not every N-th clip.
    var clipsPerArchiveShard: Int? = nil

    /// Starts the `score` run.
    /// - Parameters:
    ///   - checkpoint: the model checkpoint or system scored (the run's name, and param `checkpoint`).
    ///   - corpus: the mixed corpus scored, if any (links the run to its mix run).
    ///   - enhanced: the folder of outputs scored; when `sekit enhance` wrote it into this
    ///     catalogue (``EnhanceRunMarker``), that enhance run is the parent (its parent is the mix run).
    static func begin(_ context: RunContext, checkpoint: String, params: [String: String], corpus: URL?,
                      enhanced: URL? = nil) throws -> ScoreCatalogRecorder {
        let here = context.catalog?.url.standardizedFileURL.path
        let lineage = corpus.map { CorpusLineage(corpus: $0, catalog: context.catalog) }
        let recorded = lineage?.mixRunsAnywhere ?? [], states = lineage?.mixRunsHere ?? []
        var values = params
        values["checkpoint"] = checkpoint
        // A corpus mixed into another catalogue: the run names its mix runs, so that it is known to
        // score that corpus whichever catalogue holds it (`ScoredCorpus`; a merge makes the mix
        // run its parent).
        values.merge(lineage?.params(recorded: context.catalog != nil) ?? [:]) { _, new in new }
        var parent = lineage?.parent
        var enhanceRun: RunID?
        // The enhance run that wrote the folder into this catalogue (of the shards' runs, this catalogue's).
        if let enhanced, let catalog = context.catalog,
           let run = EnhanceRunMarker.all(in: enhanced).filter({ $0.catalog == here }).compactMap(\.runID)
            .first(where: { (try? catalog.run($0.rawValue)) != nil }) {
            parent = run
            enhanceRun = run
        }
        if states.count > 1 { values["mix_runs"] = states.map(\.runID.rawValue).joined(separator: ",") }
        // The corpus by its identity, refused before anything is written when its mix.json changed
        // since a mix run of this catalogue recorded it.
        let identity = try corpus.flatMap { folder throws(CatalogError) in try CorpusIdentity.of(folder: folder) }
        if let corpus, let identity, let catalog = context.catalog {
            try catalog.checkCorpusUnchanged(folder: corpus, found: identity, mixRuns: states.map(\.runID))
        }
        var named = context
        named.name = checkpoint
        let run = try RecordedRun.begin(named, kind: .score, name: checkpoint, params: values, parent: parent)
        if let catalog = context.catalog, let runID = run.id {
            try run.failing {
                // Outputs scored against a folder of references, written by a run made from a corpus
                // (an enhance or synthesize run up whose chain a mix run is): that corpus.
                let recordedCorpus = try corpus.flatMap { folder throws(CatalogError) in
                    try identity.map { identity throws(CatalogError) in
                        try catalog.recordCorpus(identity, folder: folder, mixRuns: recorded.map(\.runID)).identity
                    }
                } ?? enhanceRun.flatMap { run in try? catalog.corpus(madeFrom: run)?.identity }
                let folder = recordedCorpus == nil ? (corpus?.standardizedFileURL.path ?? params["reference"]) : nil
                try catalog.recordScoreTarget(ScoreTargetRecord(
                    runID: runID, corpus: recordedCorpus, folder: folder, scored: enhanced == nil ? .noisy : .enhanced,
                    enhancedFolder: enhanced?.standardizedFileURL.path, enhanceRunID: enhanceRun))
            }
        }
        // Clip ids name the corpus's mix runs wherever they were recorded: a merge then joins the
        // scores to the clips.
        let archive = try corpus.flatMap { try MixArchiveLayout.read(corpus: $0) }
        return ScoreCatalogRecorder(run: run, mixRunByShard: states.isEmpty ? recorded : states,
                                    clipsPerArchiveShard: archive?.clipsPerShard)
    }

    /// The id a clip has in the catalogue: `MIXRUN/CLIP` when its corpus was catalogued (into this
    /// catalogue or another), else the pair's id.
    func catalogClipID(_ pair: ScorePair) -> String {
        if let index = pair.corpusIndex,
           let state = mixRunByShard.first(where: { $0.shard.contains(clipsPerArchiveShard.map { index / $0 } ?? index) }) {
            return MixCatalogRecorder.catalogClipID(run: state.runID, clipID: pair.clipID)
        }
        return pair.clipID
    }

    /// Records per-clip scores and aggregates and finishes the run; clips that could not be
    /// scored are counted in `clips_failed` and their rows carry the reason.
    func finish(clips: [ClipScores], summary: [ScoreAggregate], metrics: [Metric]) throws {
        guard let catalog = run.catalog, let runID = run.id else { return }
        var rows: [ClipScoreRecord] = []
        for clip in clips {
            let id = catalogClipID(clip.pair)
            for metric in metrics {
                if let error = clip.error ?? clip.metricErrors[metric] {
                    // Both reasons when the noisy value failed too: `reason; noisy input: reason`.
                    let noisyError = clip.error == nil ? clip.noisyMetricErrors[metric].map { "; " + RecordedScores.noisyPrefix + $0 } : nil
                    rows.append(ClipScoreRecord(runID: runID, clipID: id, metric: metric.rawValue, value: nil,
                                                noisyValue: clip.noisy[metric], error: error + (noisyError ?? "")))
                } else if let value = clip.enhanced[metric] {
                    rows.append(ClipScoreRecord(runID: runID, clipID: id, metric: metric.rawValue, value: value,
                                                noisyValue: clip.noisy[metric],
                                                error: clip.noisyMetricErrors[metric].map { RecordedScores.noisyPrefix + $0 }))
                }
            }
        }
        try catalog.insertClipScores(rows)
        try catalog.insertRunMetrics(Self.runMetricRecords(summary, run: runID))
        let failed = clips.filter { $0.error != nil }.count
        try run.finish(params: ["clips": "\(clips.count)", "clips_failed": "\(failed)",
                                "values_failed": "\(clips.reduce(0) { $0 + $1.failedValues })"])
    }

    /// The `run_metrics` rows of a run's aggregates (subset `all` stored as `''`; non-finite spreads as NULL).
    static func runMetricRecords(_ summary: [ScoreAggregate], run: RunID) -> [RunMetricRecord] {
        summary.map { aggregate in
            RunMetricRecord(runID: run, metric: aggregate.metric, subset: aggregate.subset == "all" ? "" : aggregate.subset,
                            mean: aggregate.mean, std: finite(aggregate.std), ci95Low: aggregate.ci95Low.flatMap(finite),
                            ci95High: aggregate.ci95High.flatMap(finite), n: aggregate.n)
        }
    }

    static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
}
