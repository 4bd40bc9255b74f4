import Foundation

/// A score run's per-clip results read back from the catalogue, in the order the run scored them
/// (corpus clip index; clip id for folders), so its aggregates can be recomputed exactly as
/// `sekit score` computed them (after `catalog merge` folds shard runs) and its per-clip CSV
/// written again (`sekit score --from-run`).
///
/// From each `clip_scores` row: a value is the enhanced signal's, `noisy_value` the noisy input's,
/// and an error is the enhanced value's reason (no value; followed by `; noisy input: reason` when
/// the noisy value failed too) or, prefixed `noisy input: `, the noisy value's. A clip whose rows all have neither value and one same
/// reason is a clip that could not
/// be scored at all (`ClipScores.error`). Split, requested SNR and degradation kinds come from the
/// clip's row in `clips` when the scored corpus is catalogued.
public enum RecordedScores {
    /// The run's metrics (its `metrics` parameter, in order) and per-clip scores.
    /// Each pair is given the files it was scored from (for JSON).
    public static func load(run: RunID, from catalog: Catalog) throws(CatalogError) -> (metrics: [Metric], clips: [ClipScores]) {
        try catalog.reading { session in try load(session, run: run) }
    }

    /// ``load(run:from:)`` in an open read.
    static func load(_ session: CatalogSession, run: RunID) throws -> (metrics: [Metric], clips: [ClipScores]) {
        let params = try session.paramValues(of: run)
        let metrics = (params["metrics"] ?? "").split(separator: ",").compactMap { Metric(rawValue: String($0)) }
        var clips: [ClipScores] = [], indexes: [Int?] = [], degraded = false
        try session.forEachScoredClipInIDOrder(of: run, metrics: metrics.map(\.rawValue), paths: true) { recorded in
            var pair = ScorePair(clipID: recorded.clipID, reference: nil, enhanced: nil, noisy: nil, split: recorded.split,
                                 snrDB: recorded.snrDB)
            locate(&pair, params: params, cleanPath: recorded.cleanPath, noisyPath: recorded.noisyPath)
            pair.corpusIndex = recorded.index
            pair.degradations = recorded.degradations
            pair.reverberation = recorded.reverberation
            var clip = ClipScores(pair: pair)
            if let failure = recorded.failure(metricCount: metrics.count) {
                clip.error = failure
            } else {
                for row in recorded.rows {
                    let metric = metrics[row.metric]
                    if let value = row.value { clip.enhanced[metric] = value }
                    if let noisy = row.noisy { clip.noisy[metric] = noisy }
                    guard let error = row.error else { continue }
                    if row.value != nil {
                        clip.noisyMetricErrors[metric] = error.hasPrefix(noisyPrefix) ? String(error.dropFirst(noisyPrefix.count)) : error
                    } else if let both = error.range(of: "; " + noisyPrefix, options: .backwards) {
                        clip.metricErrors[metric] = String(error[..<both.lowerBound])
                        clip.noisyMetricErrors[metric] = String(error[both.upperBound...])
                    } else {
                        clip.metricErrors[metric] = error
                    }
                }
            }
            clips.append(clip)
            indexes.append(recorded.index)
            degraded = degraded || recorded.degradations?.isEmpty == false
        }
        // Degradation kinds are nil for every clip of a corpus without degradations.
        if !degraded { for position in clips.indices { clips[position].pair.degradations = nil } }
        return (metrics, scoringOrder(indexes).map { $0.map { clips[$0] } } ?? clips)
    }

    /// The files a recorded clip was scored from, as `sekit score` paired them (``ScorePairing``):
    /// through the corpus's stems, or by relative path in the run's folders.
    private static func locate(_ pair: inout ScorePair, params: [String: String], cleanPath: String?, noisyPath: String?) {
        let enhanced = params["enhanced"].map { URL(fileURLWithPath: $0) }
        if params["corpus"] != nil, let cleanPath, let noisyPath {
            let noisy = URL(fileURLWithPath: noisyPath)
            pair.reference = URL(fileURLWithPath: cleanPath)
            pair.noisy = enhanced == nil ? nil : noisy
            pair.enhanced = noisy
            if let enhanced {
                let corpus = URL(fileURLWithPath: params["corpus"]!)
                let byID = enhanced.appendingPathComponent(pair.clipID + ".wav")
                let byPath = enhanced.appendingPathComponent(String(noisyPath.dropFirst(corpus.path.count + 1)))
                pair.enhanced = FileManager.default.fileExists(atPath: byID.path) || !FileManager.default.fileExists(atPath: byPath.path)
                    ? byID : byPath
            }
        } else if let enhanced {
            pair.enhanced = enhanced.appendingPathComponent(pair.clipID)
            pair.reference = params["reference"].map { URL(fileURLWithPath: $0).appendingPathComponent(pair.clipID) }
            if let noisy = params["noisy"].map({ URL(fileURLWithPath: $0).appendingPathComponent(pair.clipID) }),
               FileManager.default.fileExists(atPath: noisy.path) {
                pair.noisy = noisy
            }
        }
    }

    /// A recorded score run read back: what `sekit score --from-run` prints.
    public struct Run: Sendable {
        public var record: RunRecord
        /// The checkpoint scored (the run's `checkpoint` parameter, else its name).
        public var checkpoint: String
        public var metrics: [Metric]
        /// Per-clip scores in scoring order (clip ids as `sekit score` names them, without the mix run).
        public var clips: [ClipScores]
        /// The aggregates, recomputed from `clips` (equal to the recorded `run_metrics`).
        public var summary: [ScoreAggregate]
    }

    /// The score run `reference` (an id, unique id prefix or name: `Catalog.resolveRun(_:kind:preferring:)`)
    /// of `catalog`, read back.
    /// - Throws: `CatalogError.unknownRun(path:id:reason:)` when it is not a score run; the errors of
    ///   `Catalog.resolveRun(_:kind:preferring:)` when it names no run or several.
    public static func run(_ reference: String, in catalog: Catalog) throws(CatalogError) -> Run {
        let record: RunRecord
        do {
            record = try catalog.resolveRun(reference, kind: .score)
        } catch {
            // A run of another kind is named as such; a reference to none, or several, lists runs of any kind.
            guard case .noSuchRun = error else { throw error }
            let other = try catalog.resolveRun(reference)
            throw .unknownRun(path: catalog.url.path, id: other.id.rawValue, reason: "is a \(other.kind.rawValue) run, not a score run")
        }
        let (metrics, clips, checkpoint, snrRule) = try catalog.reading { session in
            let (metrics, clips) = try load(session, run: record.id)
            let params = try session.paramValues(of: record.id)
            return (metrics, clips, params["checkpoint"] ?? record.name, SNRSubsetRule(params: params))
        }
        return Run(record: record, checkpoint: checkpoint, metrics: metrics, clips: clips,
                   summary: ScoreSummary.aggregate(clips, metrics: metrics, snrRule: snrRule))
    }

    /// The prefix of a noisy input's reason in `clip_scores.error` (``ScoreCatalogRecorder``).
    static let noisyPrefix = "noisy input: "

    /// Recomputes the run's `run_metrics` from its `clip_scores`
    /// (``ScoreSummary/aggregate(_:snrDB:split:degradations:reverberation:snrRule:)``
    /// over the scored clips in scoring order, as `sekit score` computes them), replacing the stored
    /// ones. Reads the values into columns, one per metric, without a per-clip structure.
    static func recomputeRunMetrics(_ session: CatalogSession, run: RunID) throws {
        let params = try session.paramValues(of: run)
        let metrics = (params["metrics"] ?? "").split(separator: ",").compactMap { Metric(rawValue: String($0)) }
        var columns = metrics.map { ScoreSummary.MetricColumn(metric: $0) }
        var snrDB: [Double?] = [], split: [String?] = [], degradations: [[String]?] = [], indexes: [Int?] = []
        var reverberation: [ClipReverberation?] = []
        var degraded = false
        try session.forEachScoredClipInIDOrder(of: run, metrics: metrics.map(\.rawValue), paths: false) { clip in
            degraded = degraded || clip.degradations?.isEmpty == false
            guard clip.failure(metricCount: metrics.count) == nil else { return }
            snrDB.append(clip.snrDB); split.append(clip.split); degradations.append(clip.degradations); indexes.append(clip.index)
            reverberation.append(clip.reverberation)
            for index in columns.indices { columns[index].enhanced.append(nil); columns[index].noisy.append(nil) }
            for row in clip.rows {
                columns[row.metric].enhanced[snrDB.count - 1] = row.value
                columns[row.metric].noisy[snrDB.count - 1] = row.noisy
            }
        }
        if !degraded { degradations = degradations.map { _ in nil } }
        if let order = scoringOrder(indexes) {
            snrDB = order.map { snrDB[$0] }; split = order.map { split[$0] }; degradations = order.map { degradations[$0] }
            reverberation = order.map { reverberation[$0] }
            for index in columns.indices {
                columns[index].enhanced = order.map { columns[index].enhanced[$0] }
                columns[index].noisy = order.map { columns[index].noisy[$0] }
            }
        }
        let summary = ScoreSummary.aggregate(columns, snrDB: snrDB, split: split, degradations: degradations,
                                             reverberation: reverberation, snrRule: SNRSubsetRule(params: params))
        try session.replaceRunMetrics(of: run, with: ScoreCatalogRecorder.runMetricRecords(summary, run: run))
    }

    /// The scoring order of clips read in clip-id order (`CatalogSession.forEachScoredClipInIDOrder(of:metrics:paths:_:)`)
    /// from their corpus indexes: by index, clips without one last, ties in clip-id order (as
    /// `sekit score` orders them). Nil when that is the order they were read in.
    static func scoringOrder(_ indexes: [Int?]) -> [Int]? {
        func precedes(_ a: Int, _ b: Int) -> Bool {
            switch (indexes[a], indexes[b]) {
            case let (x?, y?): return x < y || (x == y && a < b)
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
        let positions = Array(indexes.indices)
        guard !zip(positions, positions.dropFirst()).allSatisfy({ precedes($0, $1) }) else { return nil }
        return positions.sorted(by: precedes)
    }
}

extension ScoredClipRows {
    /// Why the clip could not be scored at all: every metric's row has neither value and the same reason.
    func failure(metricCount: Int) -> String? {
        guard rows.count == metricCount, let first = rows.first?.error,
              rows.allSatisfy({ $0.value == nil && $0.noisy == nil && $0.error == first }) else { return nil }
        return first
    }
}

extension ScoredClipRows {
    /// The clip's reverberation as its `clips` row and mix run say; nil when the clip is not catalogued.
    var reverberation: ClipReverberation? {
        isCatalogued ? ClipReverberation(rirPath: rirPath, target: reverbTarget) : nil
    }
}
