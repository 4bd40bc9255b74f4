import Foundation

/// A bootstrap percentile interval.
public struct BootstrapInterval: Sendable, Equatable, Codable {
    public var low: Double
    public var high: Double

    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    /// Half the width, (high − low)/2: the "± half-CI" of a table (percentile intervals need not
    /// be symmetric about the mean; report `low` and `high` where that matters).
    public var halfWidth: Double { (high - low) / 2 }

    public func contains(_ value: Double) -> Bool { low <= value && value <= high }
}

/// Bootstrap percentile confidence intervals of means (Efron & Tibshirani 1993, *An Introduction
/// to the Bootstrap*, §13.3), seeded and reproducible on every platform.
///
/// **Resampling.** Each resample draws as many rows as the sample has, uniformly with replacement;
/// the statistic is recomputed on every resample, and the interval at confidence c is the
/// (50 − 50c)-th and (50 + 50c)-th percentiles of the resampled statistics (2.5 and 97.5 for
/// c = 0.95), computed as `numpy.percentile(stats, [2.5, 97.5])` does by default (linear
/// interpolation between order statistics). Means are sum/n.
///
/// **Random numbers.** Resamples are taken in blocks of ``blockSize``: block b (resamples
/// b·128 ..< (b + 1)·128) draws from `SplitMix64(seed: SplitMix64.childSeed(seed, index: b,
/// stream: Bootstrap.stream))` (SEKit's SplitMix64, Steele et al. 2014), one row index per draw
/// by Lemire's unbiased multiply-shift (``SplitMix64/nextIndex(below:)``), the rows of a resample
/// in order, resample after resample. The result is therefore fixed by the data, `resamples`,
/// `confidence` and `seed` alone: identical for any number of `jobs`, on any platform (plain IEEE
/// additions, no fused multiply-add), and the first k resamples are the same for any
/// `resamples` ≥ k.
public enum Bootstrap {
    /// Resamples per block, each block with its own generator (see the type's documentation).
    /// Part of the definition of a seed's results: changing it changes every interval.
    public static let blockSize = 128
    /// The `stream` of the block generators' child seeds ("boot").
    public static let stream: UInt64 = 0x626F_6F74
    public static let defaultResamples = 10_000

    /// Percentile intervals of the mean of every column of a table, from one set of resamples
    /// of its rows: a resample draws rows (clips) with replacement once and uses them for every
    /// column (metrics of the same clips), so the columns' intervals come from the same draws.
    /// In a paired comparison the values are per-clip differences B − A, and the interval is
    /// that of the mean difference.
    ///
    /// A column's interval does not depend on the other columns: bootstrapping it alone with the
    /// same seed gives the same bits.
    /// - Parameters:
    ///   - rows: row-major values, `rowCount × columnCount` (row i's columns at i·columnCount ...).
    ///   - columnCount: values per row (≥ 1).
    ///   - resamples: bootstrap resamples (≥ 1).
    ///   - confidence: in (0, 1); 0.95 for the 2.5th and 97.5th percentiles.
    ///   - seed: the seed (report it with the interval).
    ///   - jobs: worker threads (≥ 1); the result does not depend on it.
    /// - Returns: one interval per column. One row gives [v, v] for each column.
    /// - Throws: ``StatisticsError/empty(parameter:)`` for no rows;
    ///   ``StatisticsError/nonFinite(parameter:index:value:)`` for a NaN or infinite value (the
    ///   mean would be meaningless); ``StatisticsError/invalidParameter(name:value:reason:)`` for
    ///   `column-count`, `resamples`, `confidence`, `jobs` out of range or a `rows` count that is
    ///   not a multiple of `columnCount`.
    /// - Complexity: O(resamples · rowCount · ⌈columnCount/8⌉) additions, over `jobs` threads.
    public static func meanIntervals(rows: [Double], columnCount: Int, resamples: Int = defaultResamples,
                                     confidence: Double = 0.95, seed: UInt64,
                                     jobs: Int = ProcessInfo.processInfo.activeProcessorCount)
        throws(StatisticsError) -> [BootstrapInterval] {
        try checkSettings(resamples: resamples, confidence: confidence, jobs: jobs)
        try checkTable(rows, columnCount: columnCount, parameter: "rows")
        let means = resampledMeans(rows: rows, columnCount: columnCount, resamples: resamples, seed: seed, jobs: jobs)
        return percentileIntervals(means, columnCount: columnCount, confidence: confidence)
    }

    /// ``meanIntervals(rows:columnCount:resamples:confidence:seed:jobs:)`` for one column: the
    /// percentile interval of the mean of `values`.
    public static func meanInterval(_ values: [Double], resamples: Int = defaultResamples, confidence: Double = 0.95,
                                    seed: UInt64, jobs: Int = ProcessInfo.processInfo.activeProcessorCount)
        throws(StatisticsError) -> BootstrapInterval {
        try meanIntervals(rows: values, columnCount: 1, resamples: resamples, confidence: confidence, seed: seed, jobs: jobs)[0]
    }

    /// Percentile interval of mean(y) − mean(x) for two independent samples (unpaired runs:
    /// x is run A's per-clip values, y run B's, so a positive interval means B is higher): the
    /// one-column case of ``differenceOfMeansIntervals(x:y:columnCount:resamples:confidence:seed:jobs:)``.
    public static func differenceOfMeansInterval(x: [Double], y: [Double], resamples: Int = defaultResamples,
                                                 confidence: Double = 0.95, seed: UInt64,
                                                 jobs: Int = ProcessInfo.processInfo.activeProcessorCount)
        throws(StatisticsError) -> BootstrapInterval {
        try differenceOfMeansIntervals(x: x, y: y, columnCount: 1, resamples: resamples, confidence: confidence, seed: seed, jobs: jobs)[0]
    }

    /// Percentile intervals of mean(y) − mean(x) for every column of two independent tables
    /// (unpaired runs: x holds run A's clips, y run B's, one column per metric). Each resample
    /// draws x's rows with replacement as ``meanIntervals(rows:columnCount:resamples:confidence:seed:jobs:)``
    /// does with `seed`, and y's rows the same way with the child seed
    /// `SplitMix64.childSeed(seed, index: 1, stream: Bootstrap.stream)`; resample r's statistic is
    /// y's resampled mean minus x's, per column.
    /// - Throws: ``StatisticsError/empty(parameter:)`` when `x` or `y` has no row, and as
    ///   ``meanIntervals(rows:columnCount:resamples:confidence:seed:jobs:)`` otherwise.
    /// - Complexity: O(resamples · (x rows + y rows) · ⌈columnCount/8⌉), over `jobs` threads.
    public static func differenceOfMeansIntervals(x: [Double], y: [Double], columnCount: Int, resamples: Int = defaultResamples,
                                                  confidence: Double = 0.95, seed: UInt64,
                                                  jobs: Int = ProcessInfo.processInfo.activeProcessorCount)
        throws(StatisticsError) -> [BootstrapInterval] {
        try checkSettings(resamples: resamples, confidence: confidence, jobs: jobs)
        try checkTable(x, columnCount: columnCount, parameter: "x")
        try checkTable(y, columnCount: columnCount, parameter: "y")
        let meansX = resampledMeans(rows: x, columnCount: columnCount, resamples: resamples, seed: seed, jobs: jobs)
        var differences = resampledMeans(rows: y, columnCount: columnCount, resamples: resamples,
                                         seed: SplitMix64.childSeed(seed, index: 1, stream: stream), jobs: jobs)
        for k in differences.indices { differences[k] -= meansX[k] }
        return percentileIntervals(differences, columnCount: columnCount, confidence: confidence)
    }

    /// A table is whole rows of `columnCount` (≥ 1) finite values, at least one row.
    private static func checkTable(_ values: [Double], columnCount: Int, parameter: String) throws(StatisticsError) {
        guard columnCount >= 1 else {
            throw StatisticsError.invalidParameter(name: "column-count", value: "\(columnCount)", reason: "must be at least 1")
        }
        guard values.count % columnCount == 0 else {
            throw StatisticsError.invalidParameter(name: parameter, value: "\(values.count) values",
                                                   reason: "not a whole number of rows of \(columnCount) columns")
        }
        guard !values.isEmpty else { throw StatisticsError.empty(parameter: parameter) }
        try StatisticsError.checkValues(values, parameter: parameter, allowInfinity: false)
    }

    private static func checkSettings(resamples: Int, confidence: Double, jobs: Int) throws(StatisticsError) {
        guard resamples >= 1 else {
            throw StatisticsError.invalidParameter(name: "resamples", value: "\(resamples)", reason: "must be at least 1")
        }
        guard confidence > 0 && confidence < 1 else {
            throw StatisticsError.invalidParameter(name: "confidence", value: "\(confidence)", reason: "must be strictly between 0 and 1")
        }
        guard jobs >= 1 else {
            throw StatisticsError.invalidParameter(name: "jobs", value: "\(jobs)", reason: "must be at least 1")
        }
    }

    /// The generator of block `block`.
    static func generator(seed: UInt64, block: Int) -> SplitMix64 {
        SplitMix64(seed: SplitMix64.childSeed(seed, index: UInt64(block), stream: stream))
    }

    /// The percentile interval of each column of `statistics` (resample-major: resample r's
    /// columns at r·columnCount ...).
    static func percentileIntervals(_ statistics: [Double], columnCount: Int, confidence: Double) -> [BootstrapInterval] {
        let resamples = statistics.count / columnCount
        // 50 ∓ 50c rather than 100(1 ∓ c)/2: exactly 2.5 and 97.5 for c = 0.95.
        let lowPercent = 50 - 50 * confidence, highPercent = 50 + 50 * confidence
        var column = [Double](repeating: 0, count: resamples)
        return (0..<columnCount).map { c in
            for r in 0..<resamples { column[r] = statistics[r * columnCount + c] }
            column.sort()
            return column.withUnsafeBufferPointer { sorted in
                BootstrapInterval(low: Percentile.linear(sorted: sorted, q: lowPercent),
                                  high: Percentile.linear(sorted: sorted, q: highPercent))
            }
        }
    }
}
