import Foundation

/// `sekit runs best`: the run with the best mean of a metric, respecting the metric's direction
/// (lower is better for LLR, WSS, CD), with its interval and the runner-up. An infinite mean ranks
/// as the best or worst value it is; the interval of a one-clip mean is undefined (nil).
public struct BestRun: Sendable, Codable {
    public struct Request: Sendable {
        /// A metric output name (`stoi`, `stoi_improvement`, `llr_noisy`...).
        public var metric: String
        /// `all` or a subset label as stored (`snr=0`, `split=test`); `snr=X` also names the 5 dB
        /// band holding X when SNRs were drawn from a range (`snr=[0,5)`).
        public var subset = "all"
        public var kind: RunKind = .score
        /// Only runs on this corpus (a mix run, or a score run on it; id, prefix or name).
        public var corpus: String?
        /// A filter expression over runs (see `CatalogFilter`).
        public var filter: String?

        public init(metric: String, subset: String = "all", kind: RunKind = .score, corpus: String? = nil, filter: String? = nil) {
            self.metric = metric; self.subset = subset; self.kind = kind; self.corpus = corpus; self.filter = filter
        }
    }

    /// A candidate run and its aggregate.
    public struct Entry: Sendable, Codable {
        public var id: RunID
        public var name: String
        public var startedAt: Date
        public var mean: Double
        public var ci95Low: Double?
        public var ci95High: Double?
        public var n: Int
    }

    public var metric: String
    public var subset: String
    public var higherIsBetter: Bool
    /// Runs considered (finished, of the kind, matching, with the metric in the subset).
    public var candidates: Int
    public var best: Entry
    public var runnerUp: Entry?
}

extension BestRun {
    /// The best finished run in `catalog` for `request` (see ``BestRun``); ties go to the newest run.
    /// - Throws: ``ComparisonError`` for a metric of unknown direction or no candidate; a bad filter or
    ///   corpus as ``ComparisonError/catalog(_:)``.
    public static func find(_ request: Request, in catalog: Catalog) throws(ComparisonError) -> BestRun {
        guard let higherIsBetter = MetricRegistry.output(forSeries: request.metric)?.higherIsBetter else {
            let known = MetricRegistry.all.flatMap { $0.outputs.map(\.metric.rawValue) }.joined(separator: ", ")
            throw .invalidParameter(name: "metric", value: request.metric,
                    reason: "not a metric SEKit knows the direction of; known: \(known) (and their _noisy, _improvement series)")
        }
        let compiled: CatalogFilter.Compiled
        do { compiled = try CatalogFilter.compile(request.filter, context: .runs) } catch { throw .catalog(error) }
        let allowed = try ComparisonError.carrying { () throws(CatalogError) in
            try request.corpus.map { reference throws(CatalogError) in
                Set(try catalog.scoreRuns(on: try catalog.scoredCorpus(named: reference)).map(\.id))
            }
        }
        // `snr=0` names the band of the corpus asked for (another corpus may have the exact SNR).
        let subset = try ComparisonSubset.resolve(request.subset, metric: request.metric, kind: request.kind,
                                                  runs: allowed.map { Array($0) }, in: catalog)
        var entries = try ComparisonError.carrying { () throws(CatalogError) in
            try candidates(request, subset: subset, filter: compiled, in: catalog)
        }
        if let allowed { entries = entries.filter { allowed.contains($0.id) } }
        // +inf and -inf (the SNR of a perfect estimate) are the best or worst means there are; NaN is no mean.
        entries = entries.filter { !$0.mean.isNaN }
        entries.sort { x, y in
            if x.mean != y.mean { return higherIsBetter ? x.mean > y.mean : x.mean < y.mean }
            return (x.startedAt, x.id.rawValue) > (y.startedAt, y.id.rawValue)
        }
        guard let best = entries.first else {
            throw .invalidParameter(name: "metric", value: request.metric,
                                    reason: "no finished \(request.kind.rawValue) run has it in subset \(request.subset)"
                                        + (request.corpus.map { " on corpus \($0)" } ?? "")
                                        + (request.filter.map { " matching \($0)" } ?? ""))
        }
        return BestRun(metric: request.metric, subset: subset.isEmpty ? "all" : subset, higherIsBetter: higherIsBetter,
                       candidates: entries.count,
                       best: best, runnerUp: entries.count > 1 ? entries[1] : nil)
    }

    /// The finished runs of `request.kind` in `catalog` with an aggregate of `request.metric` in `subset`,
    /// among those `filter` keeps.
    private static func candidates(_ request: Request, subset: String, filter compiled: CatalogFilter.Compiled,
                                   in catalog: Catalog) throws(CatalogError) -> [Entry] {
        // One clip: no interval (older catalogues stored one of zero width).
        try catalog.finishedRuns(of: request.kind, withAggregateOf: request.metric, subset: subset, matching: compiled).map {
            Entry(id: $0.id, name: $0.name, startedAt: $0.startedAt, mean: $0.aggregate.mean,
                  ci95Low: $0.aggregate.ci95?.low, ci95High: $0.aggregate.ci95?.high, n: $0.aggregate.n)
        }
    }
}
