import Foundation

/// `sekit runs leaderboard`: one row per checkpoint scored on a corpus, the noisy input as a
/// reference row, `mean ± half-width of the 95% interval` per metric, the best value per column
/// marked and the mean rank.
///
/// Values are the aggregates `sekit score` stored (`run_metrics`: mean over the clips scored,
/// Student-t 95% interval). The noisy row is the corpus's noisy input: the latest run that scored
/// the noisy input itself (`score --corpus` without `--enhanced`), else the `_noisy` aggregates of
/// the latest run that has them. Ranks are dense (equal means share a rank) per metric, among the
/// checkpoint rows, averaged over the metrics a row has; the noisy row is not ranked or marked.
/// Means are compared as printed (at the column's decimals, `ReportNumber.decimals(metric:values:)`):
/// values that print the same are ties, sharing a rank and the best mark; +inf and −inf (the SNR of
/// a perfect estimate) rank as the best or worst values they are. The interval of a one-clip mean
/// is undefined (`ciHalfWidth` nil).
public struct Leaderboard: Sendable, Codable {
    public struct Request: Sendable {
        /// The corpus: its mix run, or any score run on it (id, unique prefix or name).
        public var corpus: String
        /// Metric names (nil: every metric scored by a checkpoint row, registry order first).
        public var metrics: [String]?
        /// `all` or a subset label as `sekit score` stores it (`snr=0`, `split=test`); `snr=X` also
        /// names the 5 dB band holding X when SNRs were drawn from a range (`snr=[0,5)`).
        public var subset = "all"
        /// Every score run, not only the latest per checkpoint name.
        public var all = false
        /// Only these score runs as rows, every one of them (the noisy-input row stays as the
        /// reference unless it is one of them); each must be a finished score run on the corpus.
        public var runs: [RunID]?
        /// `params.KEY`: checkpoints side by side (see ``Leaderboard/Grouping``): rows whose lineage has
        /// the parameter KEY (nearest run first: the score run, its enhance run, the training run...)
        /// come first, ordered by its value, and the best of them is named; nil: ordered by mean rank.
        public var groupBy: String?
        /// The metric that picks the best checkpoint of a grouped board (nil: the mean rank).
        public var bestBy: String?

        public init(corpus: String, metrics: [String]? = nil, subset: String = "all", all: Bool = false, runs: [RunID]? = nil,
                    groupBy: String? = nil, bestBy: String? = nil) {
            self.corpus = corpus; self.metrics = metrics; self.subset = subset; self.all = all; self.runs = runs
            self.groupBy = groupBy; self.bestBy = bestBy
        }
    }

    /// One metric's value in a row.
    public struct Cell: Sendable, Codable, Equatable {
        public var mean: Double
        /// Half the width of the 95% interval of the mean; nil when not stored (one clip).
        public var ciHalfWidth: Double?
        public var n: Int
        /// Best value of its column among the checkpoint rows (ties at the printed precision all marked).
        public var best: Bool
    }

    public struct Row: Sendable, Codable {
        /// The checkpoint name (`noisy` for the reference row).
        public var name: String
        /// The score run the row comes from.
        public var runID: RunID
        /// The noisy-input reference row.
        public var isReference: Bool
        /// One cell per metric of the board (nil: the run has no value for it in this subset).
        public var cells: [Cell?]
        public var meanRank: Double?
        /// The value of the board's `groupBy` parameter along the run's lineage (nil: ungrouped board,
        /// or a row without it: the noisy input, a baseline).
        public var group: String?
    }

    public var corpus: ScoredCorpus
    public var subset: String
    public var metrics: [String]
    /// Per metric: whether higher is better (nil: unknown to the registry, not marked or ranked).
    public var higherIsBetter: [Bool?]
    public var rows: [Row]
    /// Checkpoints side by side: present when the board was asked `groupBy`.
    public var grouping: Grouping?
    /// The metric preset every checkpoint's score run was made with (its `metric_preset` param), when
    /// they share one (``MetricPreset``): the columns are then in the preset's order.
    public var preset: String? = nil
    /// Per metric column, its category in ``preset`` (nil: a metric outside the preset); nil without a preset.
    public var categories: [String?]? = nil

    /// A line for each row whose mean rank covers fewer of the board's ranked metrics than the others
    /// (its run scored another metric set): its mean rank is not comparable with theirs as it stands.
    public var rankNotes: [String] {
        let ranked = higherIsBetter.indices.filter { higherIsBetter[$0] != nil }
        return rows.filter { !$0.isReference }.compactMap { row in
            let missing = ranked.filter { row.cells[$0].map { $0.mean.isNaN } ?? true }
            guard !missing.isEmpty else { return nil }
            return "\(row.name): mean rank over \(ranked.count - missing.count) of the \(ranked.count) metrics "
                + "(not scored: \(missing.map { metrics[$0] }.joined(separator: ", "))); score it on every metric to compare its rank"
        }
    }
}

extension Leaderboard {
    /// The leaderboard of `request.corpus` in `catalog` (see ``Leaderboard``).
    /// - Throws: ``ComparisonError`` for a corpus with no score runs, unknown metrics; an unknown
    ///   corpus as ``ComparisonError/catalog(_:)``.
    public static func make(_ request: Request, from catalog: Catalog) throws(ComparisonError) -> Leaderboard {
        let corpus = try ComparisonError.carrying { () throws(CatalogError) in try catalog.scoredCorpus(named: request.corpus) }
        let runs = try ComparisonError.carrying { () throws(CatalogError) in try catalog.scoreRuns(on: corpus) }
        guard !runs.isEmpty else {
            throw .invalidParameter(name: "corpus", value: request.corpus, reason: "no finished score run on the \(corpus)")
        }
        if let asked = request.runs { try checkAllOnCorpus(asked, runs: runs, corpus: corpus, catalog: catalog) }
        let subset = try ComparisonSubset.resolve(request.subset, runs: runs.map(\.id), in: catalog)
        let aggregates = try ComparisonError.carrying { () throws(CatalogError) in
            try cells(of: runs.map(\.id), subset: subset, in: catalog)
        }
        var referenceRun: RunRecord?
        var referenceAsked = false
        var checkpoints: [RunRecord] = []
        var seenNames = Set<String>()
        for run in runs {
            // The noisy input's score run is the reference row, also when it is among the runs asked for
            // (it was once a second "noisy" row, ranked and called the best).
            let target = try ComparisonError.carrying { () throws(CatalogError) in try catalog.scoreTarget(of: run.id) }
            let noisyInput = target?.scored == .noisy
            if let asked = request.runs, asked.contains(run.id) {
                if noisyInput && !referenceAsked { referenceRun = run; referenceAsked = true; continue }
                checkpoints.append(run); continue
            }
            if noisyInput {
                if referenceRun == nil { referenceRun = run }
                continue
            }
            if request.runs != nil || (!request.all && !seenNames.insert(run.name).inserted) { continue }
            checkpoints.append(run)
        }
        let scored = checkpoints.flatMap { aggregates[$0.id]?.keys.map { $0 } ?? [] }
            .filter { name in !MetricRegistry.seriesSuffixes.contains { name.hasSuffix($0) } }
        let preset = try sharedPreset(of: checkpoints, in: catalog)
        var metrics = try boardMetrics(request.metrics, scored: Set(scored), subset: request.subset)
        if let preset, request.metrics == nil {
            // The preset's columns first, in its categories' order; any others after them as they were.
            let order = preset.metrics.map(\.rawValue)
            metrics = order.filter(metrics.contains) + metrics.filter { !order.contains($0) }
        }
        let repeated = Dictionary(grouping: checkpoints, by: \.name).filter { $0.value.count > 1 }.keys
        var rows = checkpoints.map { run in
            // With --all a checkpoint may have several runs: their rows carry the run id's start.
            Leaderboard.Row(name: repeated.contains(run.name) ? "\(run.name) [\(run.id.rawValue.prefix(8))]" : run.name,
                            runID: run.id, isReference: false,
                            cells: metrics.map { aggregates[run.id]?[$0] }, meanRank: nil)
        }
        var reference: Leaderboard.Row?
        if let run = referenceRun ?? runs.first(where: { run in metrics.contains { aggregates[run.id]?[$0 + "_noisy"] != nil } }) {
            let suffix = run.id == referenceRun?.id ? "" : "_noisy"
            reference = Leaderboard.Row(name: "noisy", runID: run.id, isReference: true,
                                        cells: metrics.map { aggregates[run.id]?[$0 + suffix] }, meanRank: nil)
        }
        // Compared at the decimals the board prints, which the reference row's values take part in.
        let decimals = Leaderboard.decimals(metrics: metrics, rows: rows + (reference.map { [$0] } ?? []))
        rank(&rows, higherIsBetter: metrics.map { MetricRegistry.output(forSeries: $0)?.higherIsBetter }, decimals: decimals)
        rows.sort { ($0.meanRank ?? .infinity, $0.name) < ($1.meanRank ?? .infinity, $1.name) }
        var grouping: Leaderboard.Grouping?
        if let groupBy = request.groupBy {
            grouping = try Grouping.make(&rows, by: groupBy, bestBy: request.bestBy, metrics: metrics, in: catalog)
        } else if let bestBy = request.bestBy {
            throw .invalidParameter(name: "best-by", value: bestBy, reason: "picks the best of grouped checkpoints; give --group-by too")
        }
        if let reference { rows.insert(reference, at: 0) }
        var board = Leaderboard(corpus: corpus, subset: subset.isEmpty ? "all" : subset, metrics: metrics,
                                higherIsBetter: metrics.map { MetricRegistry.output(forSeries: $0)?.higherIsBetter }, rows: rows,
                                grouping: grouping)
        if let preset {
            board.preset = preset.name
            board.categories = metrics.map { name in Metric(rawValue: name).flatMap(preset.category(of:)) }
        }
        return board
    }

    /// The preset all of `runs` recorded (`metric_preset`), nil when one has none or they differ.
    static func sharedPreset(of runs: [RunRecord], in catalog: Catalog) throws(ComparisonError) -> MetricPreset? {
        var names: [String?] = []
        for run in runs {
            names.append(try ComparisonError.carrying { () throws(CatalogError) in try catalog.paramValues(of: run.id)["metric_preset"] })
        }
        guard let first = names.first, let name = first, names.allSatisfy({ $0 == name }) else { return nil }
        return MetricPreset.named(name)
    }

    /// The board's metrics: those asked for (each scored by some checkpoint in the subset), or
    /// every metric scored, the registry's metrics first in registry order, then others by name.
    static func boardMetrics(_ requested: [String]?, scored: Set<String>, subset: String) throws(ComparisonError) -> [String] {
        let known = MetricRegistry.all.flatMap { $0.outputs.map(\.metric.rawValue) }
        let available = known.filter(scored.contains) + scored.subtracting(known).sorted()
        guard !available.isEmpty else {
            throw .invalidParameter(name: "subset", value: subset, reason: "no score run on this corpus has aggregates for this subset")
        }
        guard let requested else { return available }
        for metric in requested where !scored.contains(metric) {
            throw .invalidParameter(name: "metrics", value: metric,
                                    reason: "no checkpoint has it in subset \(subset); available: \(available.joined(separator: ","))")
        }
        return requested
    }

    /// Marks the best cell per column and sets each row's mean dense rank, means compared as printed
    /// with `decimals` per column (nil: exactly); ±inf rank as the extremes they are, NaN not at all.
    static func rank(_ rows: inout [Leaderboard.Row], higherIsBetter: [Bool?], decimals: [Int]? = nil) {
        var rankSums = [Double](repeating: 0, count: rows.count)
        var rankCounts = [Int](repeating: 0, count: rows.count)
        for (column, direction) in higherIsBetter.enumerated() {
            guard let direction else { continue }
            let present = rows.indices.filter { rows[$0].cells[column].map { !$0.mean.isNaN } ?? false }
            guard !present.isEmpty else { continue }
            let printed = present.map { row in
                let mean = rows[row].cells[column]!.mean
                return decimals.flatMap { Double(ReportNumber.fixed(mean, decimals: $0[column])) } ?? mean
            }
            let ranks = Ranking.denseRanks(printed, higherIsBetter: direction)
            for (k, row) in present.enumerated() {
                rankSums[row] += Double(ranks[k])
                rankCounts[row] += 1
                if ranks[k] == 1 { rows[row].cells[column]!.best = true }
            }
        }
        for row in rows.indices where rankCounts[row] > 0 { rows[row].meanRank = rankSums[row] / Double(rankCounts[row]) }
    }

    /// Throws unless every run in `asked` is one of `runs` (the finished score runs on `corpus`),
    /// naming each that is not and what it is instead.
    static func checkAllOnCorpus(_ asked: [RunID], runs: [RunRecord], corpus: ScoredCorpus, catalog: Catalog) throws(ComparisonError) {
        let on = Set(runs.map(\.id))
        var problems: [String] = []
        for id in asked where !on.contains(id) {
            let run: RunRecord
            do { run = try catalog.resolveRun(id.rawValue) } catch { throw .catalog(error) }
            let label = run.name.isEmpty ? id.rawValue : "\(run.name) (\(id.rawValue.prefix(8)))"
            if run.kind != .score { problems.append("\(label) is a \(run.kind.rawValue) run, not a score run") }
            else if run.status != .finished { problems.append("\(label) is \(run.status.rawValue), not finished") }
            else {
                problems.append("\(label) scored " + ((try? catalog.scoredCorpus(of: run)).map { "the \($0)" } ?? "no recorded corpus"))
            }
        }
        guard problems.isEmpty else {
            throw .invalidParameter(name: "runs", value: asked.map(\.rawValue).joined(separator: ","),
                                    reason: "runs compared side by side must be finished score runs on one corpus, the \(corpus); "
                                        + problems.joined(separator: "; "))
        }
    }

    /// Stored aggregates of `runs` in `catalog` in `subset` (`""` for all clips): run → metric → cell.
    private static func cells(of runs: [RunID], subset: String, in catalog: Catalog) throws(CatalogError) -> [RunID: [String: Cell]] {
        var result: [RunID: [String: Cell]] = [:]
        for record in try catalog.aggregates(of: runs, subset: subset) {
            // One clip: no interval (older catalogues stored one of zero width).
            let half = record.ci95.map { ($0.high - $0.low) / 2 }
            result[record.runID, default: [:]][record.metric] = Cell(mean: record.mean, ciHalfWidth: half, n: record.n, best: false)
        }
        return result
    }
}
