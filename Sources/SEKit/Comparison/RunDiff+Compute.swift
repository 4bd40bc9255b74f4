import Foundation

extension RunDiff {
    /// Compares score runs `a` and `b` of `catalog` (ids, unique id prefixes or names; see
    /// `Catalog.resolveRun(_:kind:preferring:)`).
    /// - Throws: ``ComparisonError`` for runs scored on different corpora
    ///   without `request.unpaired`, runs without common clips, unknown metrics or subsets; unknown or
    ///   ambiguous runs as ``ComparisonError/catalog(_:)``.
    public static func compute(_ a: String, _ b: String, request: Request = .init(), in catalog: Catalog) throws(ComparisonError)
        -> RunDiff {
        let runA: RunRecord, runB: RunRecord, corpusA: ScoredCorpus, corpusB: ScoredCorpus
        do {
            runA = try catalog.resolveRun(a, kind: .score)
            runB = try catalog.resolveRun(b, kind: .score)
            corpusA = try catalog.scoredCorpus(of: runA)
            corpusB = try catalog.scoredCorpus(of: runB)
        } catch { throw .catalog(error) }
        if corpusA != corpusB && !request.unpaired {
            // The runs are at fault, not an option: --unpaired was not given.
            throw .invalidParameter(name: "runs", value: "\(a) \(b)", reason: """
                a paired comparison needs two runs scored on the same corpus, but run \(runA.id) (\(runA.name)) \
                scored \(corpusA) and run \(runB.id) (\(runB.name)) scored \(corpusB), so their clips cannot be \
                paired; if the test sets really differ, compare them unpaired with --unpaired (Mann-Whitney U \
                and a bootstrap of the difference of means)
                """)
        }
        let scoresA = try RunScores.load(of: runA, from: catalog)
        let scoresB = try RunScores.load(of: runB, from: catalog)
        let metrics = try comparedMetrics(request.metrics, scoresA, scoresB)
        var diff = RunDiff(
            a: .init(id: runA.id, name: runA.name, corpus: corpusA, clips: scoresA.clipIDs.count),
            b: .init(id: runB.id, name: runB.name, corpus: corpusB, clips: scoresB.clipIDs.count),
            paired: !request.unpaired, resamples: request.resamples, seed: request.seed, confidence: request.confidence,
            alpha: request.alpha, params: try paramDifferences(runA, runB, in: catalog), rows: [], onlyInA: [], onlyInB: [],
            unpairedValues: [:])
        if request.unpaired {
            diff.rows = try RunDiffStatistics.unpairedRows(scoresA, scoresB, metrics: metrics, request: request)
        } else {
            let pairs = RunDiffStatistics.ClipPairs(scoresA, scoresB)
            guard !pairs.a.isEmpty else {
                throw .invalidParameter(name: "runs", value: "\(runA.id) \(runB.id)", reason: "the two runs have no clip in common")
            }
            diff.onlyInA = pairs.onlyInA
            diff.onlyInB = pairs.onlyInB
            (diff.rows, diff.unpairedValues) = try RunDiffStatistics.pairedRows(scoresA, scoresB, pairs: pairs, metrics: metrics,
                                                                                request: request)
        }
        try RunDiffStatistics.correct(&diff.rows, alpha: request.alpha)
        return diff
    }

    /// The metrics to compare: those asked for (each must have been scored by both runs), or
    /// every metric both runs scored, in A's order.
    static func comparedMetrics(_ requested: [String]?, _ a: RunScores, _ b: RunScores) throws(ComparisonError) -> [String] {
        let common = a.metrics.filter { b.values[$0] != nil }
        guard let requested else {
            guard !common.isEmpty else {
                throw .invalidParameter(name: "metrics", value: "",
                        reason: "the runs share no metric (A: \(a.metrics.joined(separator: ",")); B: \(b.metrics.joined(separator: ",")))")
            }
            return common
        }
        for metric in requested where !common.contains(metric) {
            throw .invalidParameter(name: "metrics", value: metric,
                                    reason: "not scored by both runs; both have: \(common.joined(separator: ","))")
        }
        return requested
    }
}

/// The arithmetic of ``RunDiff``: pairing clips, subsets, bootstrap intervals, tests, Holm.
enum RunDiffStatistics {
    /// Clips of A and B matched by id (positions in each run's columns), in A's order.
    struct ClipPairs {
        var a: [Int] = []
        var b: [Int] = []
        var onlyInA: [String] = []
        var onlyInB: [String] = []

        init(_ scoresA: RunScores, _ scoresB: RunScores) {
            let indexB = scoresB.indexOfClip
            var seenB = [Bool](repeating: false, count: scoresB.clipIDs.count)
            for (i, id) in scoresA.clipIDs.enumerated() {
                if let j = indexB[id] { a.append(i); b.append(j); seenB[j] = true } else { onlyInA.append(id) }
            }
            onlyInB = scoresB.clipIDs.indices.filter { !seenB[$0] }.map { scoresB.clipIDs[$0] }
        }
    }

    /// The subsets to report, given the clips' SNRs, splits and degradations, filtered to `requested`.
    /// SNR subsets follow the runs' recorded rule when they record the same one (``SNRSubsetRule``).
    static func subsets(snrDB: [Double?], split: [String?], degradations: [[String]?], reverberation: [ClipReverberation?],
                        snrRule: SNRSubsetRule?, requested: [String]?) throws(ComparisonError) -> [(label: String, members: [Int])] {
        let all = ScoreSummary.subsets(snrDB: snrDB, split: split, degradations: degradations, reverberation: reverberation,
                                       snrRule: snrRule)
        guard let requested else { return all }
        return try requested.map { label throws(ComparisonError) in
            let wanted = label == "" ? "all" : label
            // `snr=0` also names the 5 dB band of continuous draws holding 0 dB (`snr=[0,5)`).
            let resolved = SNRSubset.resolve(wanted, among: all.map(\.label)) ?? wanted
            guard let subset = all.first(where: { $0.label == resolved }) else {
                let known = all.map(\.label).joined(separator: ", ")
                let hint = snrDB.allSatisfy({ $0 == nil }) ? " (the clips are not in the catalogue, so they have no SNR or split)" : ""
                throw .invalidParameter(name: "subset", value: label,
                                        reason: "no such subset of the clips compared; known: \(known)\(hint)")
            }
            return subset
        }
    }

    /// The SNR subset rule both runs recorded; nil when they differ or record none.
    static func sharedSNRRule(_ a: RunScores, _ b: RunScores) -> SNRSubsetRule? {
        a.snrRule == b.snrRule ? a.snrRule : nil
    }

    /// Paired rows: per subset and metric, the clips of the subset where both values are finite.
    static func pairedRows(_ scoresA: RunScores, _ scoresB: RunScores, pairs: ClipPairs, metrics: [String],
                           request: RunDiff.Request) throws(ComparisonError) -> ([RunDiff.Row], [String: Int]) {
        // Per metric: the value pairs of every paired clip (nil where one is missing or not finite).
        var unpairedValues: [String: Int] = [:]
        let columnsA = metrics.map { scoresA.values[$0]! }, columnsB = metrics.map { scoresB.values[$0]! }
        let differences: [[Double?]] = metrics.indices.map { m in
            let metric = metrics[m], valuesA = columnsA[m], valuesB = columnsB[m]
            var out = [Double?](repeating: nil, count: pairs.a.count)
            var missing = 0
            for k in pairs.a.indices {
                if let x = valuesA[pairs.a[k]], let y = valuesB[pairs.b[k]], x.isFinite, y.isFinite { out[k] = y - x } else { missing += 1 }
            }
            if missing > 0 { unpairedValues[metric] = missing }
            return out
        }
        let subsets = try subsets(snrDB: pairs.a.map { scoresA.snrDB[$0] }, split: pairs.a.map { scoresA.split[$0] },
                                  degradations: pairs.a.map { scoresA.degradations[$0] },
                                  reverberation: pairs.a.map { scoresA.reverberation[$0] },
                                  snrRule: sharedSNRRule(scoresA, scoresB), requested: request.subsets)
        var rows: [RunDiff.Row] = []
        for subset in subsets {
            let members = metrics.indices.map { m in subset.members.filter { differences[m][$0] != nil } }
            var intervals: [Int: (Double, Double)] = [:]
            for (clips, group) in groupedByClips(members) where !clips.isEmpty {
                var table = [Double](repeating: 0, count: clips.count * group.count)
                for (r, clip) in clips.enumerated() { for (c,
                                                           m) in group.enumerated() { table[r * group.count + c] = differences[m][clip]! } }
                let found = try checked { () throws(StatisticsError) in
                    try Bootstrap.meanIntervals(rows: table, columnCount: group.count, resamples: request.resamples,
                                                confidence: request.confidence, seed: request.seed)
                }
                for (c, m) in group.enumerated() { intervals[m] = (found[c].low, found[c].high) }
            }
            for (m, metric) in metrics.enumerated() where !members[m].isEmpty {
                let clips = members[m]
                let d = clips.map { differences[m][$0]! }
                let valuesA = clips.map { columnsA[m][pairs.a[$0]]! }
                let valuesB = clips.map { columnsB[m][pairs.b[$0]]! }
                let test = try checked { () throws(StatisticsError) in try WilcoxonSignedRank.test(differences: d) }
                rows.append(RunDiff.Row(
                    metric: metric, subset: subset.label, meanA: mean(valuesA), meanB: mean(valuesB), difference: mean(d),
                    ciLow: intervals[m]!.0, ciHigh: intervals[m]!.1, test: "wilcoxon", method: test?.method.rawValue,
                    statistic: test?.statistic, p: test?.pValue,
                    pHolm: nil, significant: false, n: clips.count, nA: clips.count, nB: clips.count,
                    higherIsBetter: MetricRegistry.output(forSeries: metric)?.higherIsBetter))
            }
        }
        return (rows, unpairedValues)
    }

    /// Unpaired rows: per subset and metric, each run's finite values in the subset. Metrics whose
    /// values cover the same clips of both runs are bootstrapped together.
    static func unpairedRows(_ scoresA: RunScores, _ scoresB: RunScores, metrics: [String],
                             request: RunDiff.Request) throws(ComparisonError) -> [RunDiff.Row] {
        let countA = scoresA.clipIDs.count
        let subsets = try subsets(snrDB: scoresA.snrDB + scoresB.snrDB, split: scoresA.split + scoresB.split,
                                  degradations: scoresA.degradations + scoresB.degradations,
                                  reverberation: scoresA.reverberation + scoresB.reverberation,
                                  snrRule: sharedSNRRule(scoresA, scoresB), requested: request.subsets)
        // Per metric, A's clips then B's, finite values only (nil otherwise).
        let finite: [[Double?]] = metrics.map { metric in
            (scoresA.values[metric]! + scoresB.values[metric]!).map { $0.flatMap { $0.isFinite ? $0 : nil } }
        }
        var rows: [RunDiff.Row] = []
        for subset in subsets {
            // Per metric, the subset's members (of A, then of B) with a finite value.
            let members = metrics.indices.map { m in subset.members.filter { finite[m][$0] != nil } }
            var intervals: [Int: BootstrapInterval] = [:]
            for (clips, group) in groupedByClips(members) {
                let x = clips.filter { $0 < countA }.flatMap { clip in group.map { finite[$0][clip]! } }
                let y = clips.filter { $0 >= countA }.flatMap { clip in group.map { finite[$0][clip]! } }
                guard !x.isEmpty, !y.isEmpty else { continue }
                let found = try checked { () throws(StatisticsError) in
                    try Bootstrap.differenceOfMeansIntervals(x: x, y: y, columnCount: group.count, resamples: request.resamples,
                                                             confidence: request.confidence, seed: request.seed)
                }
                for (c, m) in group.enumerated() { intervals[m] = found[c] }
            }
            for (m, metric) in metrics.enumerated() {
                guard let interval = intervals[m] else { continue }
                let x = members[m].filter { $0 < countA }.map { finite[m][$0]! }
                let y = members[m].filter { $0 >= countA }.map { finite[m][$0]! }
                let test = try checked { () throws(StatisticsError) in try MannWhitneyU.test(x, y) }
                rows.append(RunDiff.Row(
                    metric: metric, subset: subset.label, meanA: mean(x), meanB: mean(y), difference: mean(y) - mean(x),
                    ciLow: interval.low, ciHigh: interval.high, test: "mann-whitney", method: test.method.rawValue,
                    statistic: test.statistic, p: test.pValue, pHolm: nil, significant: false, n: x.count + y.count,
                    nA: x.count, nB: y.count, higherIsBetter: MetricRegistry.output(forSeries: metric)?.higherIsBetter))
            }
        }
        return rows
    }

    /// Metrics (indices) grouped by the clips they are compared on, in order of first appearance:
    /// metrics of one group are bootstrapped together, from one set of resamples.
    static func groupedByClips(_ members: [[Int]]) -> [(clips: [Int], metrics: [Int])] {
        var groups: [(clips: [Int], metrics: [Int])] = []
        var position: [[Int]: Int] = [:]
        for (m, clips) in members.enumerated() {
            if let k = position[clips] { groups[k].metrics.append(m) } else { position[clips] = groups.count; groups.append((clips, [m])) }
        }
        return groups
    }

    /// Holm-corrects the rows' p-values (rows without a p are left out of the family) and marks
    /// the rows whose corrected p is below `alpha`.
    static func correct(_ rows: inout [RunDiff.Row], alpha: Double) throws(ComparisonError) {
        let tested = rows.indices.filter { rows[$0].p != nil }
        let adjusted = try checked { () throws(StatisticsError) in try HolmCorrection.adjusted(tested.map { rows[$0].p! }) }
        for (k, index) in tested.enumerated() {
            rows[index].pHolm = adjusted[k]
            rows[index].significant = adjusted[k] < alpha
        }
    }

    /// Runs a statistic, turning its parameter errors into comparison parameter errors.
    static func checked<T>(_ body: () throws(StatisticsError) -> T) throws(ComparisonError) -> T {
        do { return try body() } catch {
            let (name, value, reason) = error.invalidParameter ?? ("statistics", "", error.description)
            throw .invalidParameter(name: name, value: value, reason: reason)
        }
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
}
