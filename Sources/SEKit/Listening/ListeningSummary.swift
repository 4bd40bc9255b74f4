import Foundation

/// The results of a listening test from its kept raters: each condition's mean score per scale and
/// SNR subset with its Student-t and bootstrap 95% intervals, and paired comparisons between the
/// runs' conditions (`sekit listen show`).
///
/// Every kept rater rated every stimulus. A condition's mean and Student-t interval (`Summary`) are
/// over all its ratings (kept raters × clips: the MOS and its interval of ITU-T P.800.2); its
/// bootstrap interval resamples clips, each clip its mean over the kept raters, as `sekit runs diff`
/// resamples clips (`Bootstrap/meanIntervals(rows:columnCount:resamples:confidence:seed:jobs:)`,
/// 10,000 resamples, the test's seed, every condition of a subset from the same resamples). A
/// comparison of two runs A, B uses the clips' mean differences B − A: the bootstrap interval of
/// their mean, the Wilcoxon signed-rank test (`WilcoxonSignedRank`) and Holm's correction over
/// every comparison shown (`HolmCorrection`), as `sekit runs diff` does for metrics.
public struct ListeningSummary: Sendable, Codable {
    /// One condition's score on one scale and subset.
    public struct ConditionRow: Sendable, Codable, Equatable {
        public var condition: String
        public var scale: String
        public var subset: String
        public var mean: Double
        public var std: Double
        public var ci95Low: Double
        public var ci95High: Double
        public var bootstrapLow: Double
        public var bootstrapHigh: Double
        /// Ratings (kept raters × clips of the subset).
        public var n: Int
        /// Clips of the subset (what the bootstrap resamples).
        public var clips: Int
    }

    /// Two runs' conditions compared on the same ratings rows.
    public struct Comparison: Sendable, Codable, Equatable {
        public var scale: String
        public var a: String
        public var b: String
        /// mean(B) − mean(A).
        public var difference: Double
        public var ci95Low: Double
        public var ci95High: Double
        public var p: Double?
        public var pHolm: Double?
        public var significant: Bool
        public var n: Int
    }

    public var test: String
    public var kind: ListeningTestKind
    public var stimuliHash: String
    public var seed: UInt64
    public var resamples: Int
    public var raters: [StoredListeningTest.Rater]
    public var rows: [ConditionRow]
    public var comparisons: [Comparison]

    /// Summarises `test`.
    /// - Throws: statistics errors. Without a kept rater there are no rows.
    public init(_ test: StoredListeningTest, resamples: Int = Bootstrap.defaultResamples) throws {
        self.test = test.name
        kind = test.kind
        stimuliHash = test.stimuliHash
        seed = test.seed
        self.resamples = resamples
        raters = test.raters
        rows = []
        comparisons = []
        let table = ListeningTable(test)
        guard !table.raters.isEmpty else { return }
        for scale in test.kind.scales {
            let values = table.values(scale: scale)
            let means = table.stimulusMeans(scale: scale)
            let columns = table.conditions.count
            for (label, members) in ScoreSummary.subsets(snrDB: table.trialSNRs, split: [], snrRule: test.snrRule) {
                let memberSet = Set(members)
                let rowIndices = table.rowTrials.indices.filter { memberSet.contains(table.rowTrials[$0]) }
                var clipRows = [Double]()
                clipRows.reserveCapacity(members.count * columns)
                for t in members { clipRows += means[(t * columns)..<((t + 1) * columns)] }
                let intervals = try Bootstrap.meanIntervals(
                    rows: clipRows, columnCount: columns, resamples: resamples,
                    seed: SplitMix64.childSeed(seed, index: UInt64(rows.count), stream: 0x6C73))
                for (c, condition) in table.conditions.enumerated() {
                    let column = rowIndices.map { values[$0 * columns + c] }
                    let summary = Summary(values: column)
                    rows.append(
                        ConditionRow(
                            condition: condition, scale: scale, subset: label, mean: summary.mean, std: summary.std,
                            ci95Low: summary.ci95Low, ci95High: summary.ci95High, bootstrapLow: intervals[c].low,
                            bootstrapHigh: intervals[c].high, n: column.count, clips: members.count))
                }
            }
            comparisons += try Self.compare(table, means: means, scale: scale, resamples: resamples, seed: seed)
        }
        let pValues = comparisons.compactMap(\.p)
        if !pValues.isEmpty {
            let adjusted = try HolmCorrection.adjusted(pValues)
            var next = 0
            for i in comparisons.indices where comparisons[i].p != nil {
                comparisons[i].pHolm = adjusted[next]
                comparisons[i].significant = adjusted[next] < 0.05
                next += 1
            }
        }
    }

    /// Every pair of the runs' conditions on `scale` (A before B in condition order), on the clips'
    /// mean scores.
    static func compare(_ table: ListeningTable, means: [Double], scale: String, resamples: Int, seed: UInt64) throws -> [Comparison] {
        let runs = table.conditions.indices.filter { table.isRun[$0] }
        var pairs: [(Int, Int)] = []
        for (i, a) in runs.enumerated() { for b in runs[(i + 1)...] { pairs.append((a, b)) } }
        guard !pairs.isEmpty else { return [] }
        let columns = table.conditions.count
        let clipCount = table.trials.count
        var differences = [Double](repeating: 0, count: clipCount * pairs.count)
        for t in 0..<clipCount {
            for (p, (a, b)) in pairs.enumerated() { differences[t * pairs.count + p] = means[t * columns + b] - means[t * columns + a] }
        }
        let intervals = try Bootstrap.meanIntervals(
            rows: differences, columnCount: pairs.count, resamples: resamples,
            seed: SplitMix64.childSeed(seed, index: 0, stream: 0x6469_6666))
        return try pairs.enumerated().map { p, pair in
            let column = (0..<clipCount).map { differences[$0 * pairs.count + p] }
            let test = try WilcoxonSignedRank.test(differences: column)
            return Comparison(
                scale: scale, a: table.conditions[pair.0], b: table.conditions[pair.1],
                difference: column.reduce(0, +) / Double(clipCount), ci95Low: intervals[p].low, ci95High: intervals[p].high,
                p: test?.pValue, pHolm: nil, significant: false, n: clipCount)
        }
    }
}

/// The kept raters' ratings of a test's `test` trials as a table: one row per (kept rater, trial),
/// one column per condition (the runs by name, then `anchor35`, `anchor70`, `reference`).
struct ListeningTable {
    var raters: [String]
    var trials: [String]
    var trialSNRs: [Double?]
    var trialClips: [String]
    var conditions: [String]
    /// Whether each condition is a run's (not an anchor or the reference).
    var isRun: [Bool]
    var scoreRunIDs: [String?]
    /// The trial index of each row (rows are rater-major).
    var rowTrials: [Int]
    let test: StoredListeningTest
    private let stimulusIndex: [String: (trial: Int, condition: Int)]

    init(_ test: StoredListeningTest) {
        self.test = test
        raters = test.raters.filter { !$0.excluded }.map(\.rater)
        let stimuli = test.stimuli.filter { $0.role == "test" }
        trials = Array(Set(stimuli.map(\.trial))).sorted()
        let trialIndex = Dictionary(uniqueKeysWithValues: trials.enumerated().map { ($1, $0) })
        var snrs = [Double?](repeating: nil, count: trials.count)
        var clips = [String](repeating: "", count: trials.count)
        var runIDs: [String: String?] = [:]
        for s in stimuli {
            snrs[trialIndex[s.trial]!] = s.snrDB
            clips[trialIndex[s.trial]!] = s.clipID
            runIDs[s.condition] = s.scoreRunID
        }
        trialSNRs = snrs
        trialClips = clips
        let fixed = ["anchor35", "anchor70", "reference"]
        conditions = runIDs.keys.filter { runIDs[$0]! != nil }.sorted() + fixed.filter { runIDs[$0] != nil }
        isRun = conditions.map { runIDs[$0]! != nil }
        scoreRunIDs = conditions.map { runIDs[$0]! }
        let conditionIndex = Dictionary(uniqueKeysWithValues: conditions.enumerated().map { ($1, $0) })
        stimulusIndex = Dictionary(uniqueKeysWithValues: stimuli.map { ($0.id, (trialIndex[$0.trial]!, conditionIndex[$0.condition]!)) })
        let trialCount = trials.count
        rowTrials = raters.flatMap { _ in Array(0..<trialCount) }
    }

    /// Row-major values of `scale` (rows × conditions).
    func values(scale: String) -> [Double] {
        let raterIndex = Dictionary(uniqueKeysWithValues: raters.enumerated().map { ($1, $0) })
        var values = [Double](repeating: .nan, count: raters.count * trials.count * conditions.count)
        for rating in test.ratings where rating.scale == scale {
            guard let r = raterIndex[rating.rater], let (t, c) = stimulusIndex[rating.stimulus] else { continue }
            values[(r * trials.count + t) * conditions.count + c] = rating.score
        }
        return values
    }

    /// The mean over kept raters of each (trial, condition) on `scale`, trial-major.
    func stimulusMeans(scale: String) -> [Double] {
        let values = values(scale: scale)
        let cells = trials.count * conditions.count
        var sums = [Double](repeating: 0, count: cells)
        for r in 0..<raters.count { for i in 0..<cells { sums[i] += values[r * cells + i] } }
        return sums.map { $0 / Double(raters.count) }
    }
}
