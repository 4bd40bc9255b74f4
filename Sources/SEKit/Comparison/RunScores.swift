import Foundation

/// The per-clip scores of one `score` run, as columns: one entry per clip the run recorded, with
/// the clip's requested SNR and split when the clip is in the catalogue (a scored mix corpus).
public struct RunScores: Sendable {
    public var run: RunRecord
    /// Clip ids, sorted (`MIXRUN/CLIP` for a catalogued corpus, else the pair's id).
    public var clipIDs: [String]
    /// Metric → value per clip (nil where the run has no value: a failed clip or metric, or a
    /// metric not scored for that clip).
    public var values: [String: [Double?]]
    /// Metric → value of the noisy input per clip, where the run scored it.
    public var noisyValues: [String: [Double?]]
    /// Requested SNR (dB) per clip; nil for clips not in the catalogue.
    public var snrDB: [Double?]
    /// Split per clip; nil for clips not in the catalogue.
    public var split: [String?]
    /// Degradation kinds per clip (empty: none); nil for clips not in the catalogue.
    public var degradations: [[String]?] = []
    /// Reverberation per clip (``ClipReverberation``); nil for clips not in the catalogue.
    public var reverberation: [ClipReverberation?] = []
    /// Metrics with at least one row: in the order of the run's `metrics` parameter (the order
    /// `sekit score` was asked for), then any others by name.
    public var metrics: [String]
    /// How the scored corpus's SNRs form subsets, as the run recorded it (nil: not recorded; the
    /// count rule of ``SNRSubsetRule/inferred(distinctSNRs:)`` applies).
    public var snrRule: SNRSubsetRule? = nil

    /// A clip id without its mix run (`MIXRUN/CLIP` → `CLIP`); other ids as they are.
    public static func shortClipID(_ id: String) -> String {
        guard let slash = id.firstIndex(of: "/"), UUID(uuidString: String(id[..<slash])) != nil else { return id }
        return String(id[id.index(after: slash)...])
    }

    /// Position of each clip id.
    public var indexOfClip: [String: Int] {
        Dictionary(uniqueKeysWithValues: clipIDs.enumerated().map { ($1, $0) })
    }
}

extension RunScores {
    /// Loads every clip score of `run` from `catalog` (one query through the `clip_scores` primary key,
    /// joined with `clips` for SNR and split, and `clip_degradations` for the degradation kinds).
    /// - Throws: ``ComparisonError/invalidParameter(name:value:reason:)`` when `run` is not a score run;
    ///   the catalogue's errors as ``ComparisonError/catalog(_:)``.
    public static func load(of run: RunRecord, from catalog: Catalog) throws(ComparisonError) -> RunScores {
        guard run.kind == .score else {
            throw .invalidParameter(name: "run", value: run.id.rawValue, reason: "is a \(run.kind.rawValue) run; compare score runs")
        }
        return try ComparisonError.carrying { () throws(CatalogError) in try clipScores(of: run, from: catalog) }
    }

    /// ``load(of:from:)`` of a score run: the catalogue's rows.
    private static func clipScores(of run: RunRecord, from catalog: Catalog) throws(CatalogError) -> RunScores {
        var clipIDs: [String] = [], snrDB: [Double?] = [], split: [String?] = [], degradations: [[String]?] = []
        let kinds = try catalog.degradationKindsOfClipsScored(by: run.id)
        let rooms = try catalog.reverberationOfClipsScored(by: run.id)
        var reverberation: [ClipReverberation?] = []
        var metrics: [String] = []
        var values: [[Double?]] = [], noisyValues: [[Double?]] = []
        // Rows come in (clip, metric) order: a clip's rows are consecutive, so a clip is new
        // when its id differs from the previous row's, and metrics are a short list.
        try catalog.forEachClipScore(of: run.id) { row in
            if clipIDs.last != row.clipID {
                clipIDs.append(row.clipID)
                snrDB.append(row.snrRequestedDB)
                split.append(row.split)
                degradations.append(row.isCatalogued ? kinds[row.clipID] ?? [] : nil)
                let room = rooms[row.clipID]
                reverberation.append(row.isCatalogued ? ClipReverberation(rirPath: room?.rirPath, target: room?.target ?? "dry") : nil)
                for m in metrics.indices { values[m].append(nil); noisyValues[m].append(nil) }
            }
            let m: Int
            if let known = metrics.firstIndex(of: row.metric) {
                m = known
            } else {
                m = metrics.count
                metrics.append(row.metric)
                values.append(Array(repeating: nil, count: clipIDs.count))
                noisyValues.append(Array(repeating: nil, count: clipIDs.count))
            }
            values[m][clipIDs.count - 1] = row.value
            noisyValues[m][clipIDs.count - 1] = row.noisyValue
        }
        var scores = RunScores(run: run, clipIDs: clipIDs,
                               values: Dictionary(uniqueKeysWithValues: zip(metrics, values)),
                               noisyValues: Dictionary(uniqueKeysWithValues: zip(metrics, noisyValues)),
                               snrDB: snrDB, split: split, degradations: degradations, reverberation: reverberation, metrics: metrics)
        let params = try catalog.paramValues(of: run.id)
        let requested = params["metrics"]?.split(separator: ",").map(String.init) ?? []
        scores.snrRule = params[SNRSubsetRule.recordKey].flatMap(SNRSubsetRule.init(rawValue:))
        let present = Set(scores.metrics)
        scores.metrics = requested.filter(present.contains) + present.subtracting(requested).sorted()
        return scores
    }
}
