import Foundation

/// `sekit runs diff A B`: how two score runs differ, in their parameters and, per metric and
/// subset of clips, in their scores, with a bootstrap interval of the difference and a test of
/// whether it is real.
///
/// Paired (the default; both runs scored the same corpus): on the clips both runs scored with a
/// finite value, the difference per clip is B − A; the interval is the percentile bootstrap of
/// the mean difference (clips resampled with replacement, all metrics of a subset resampled
/// together); the test is the two-sided Wilcoxon signed-rank test with SciPy's defaults. Unpaired
/// (`unpaired`, runs on different corpora): the interval is the bootstrap of mean(B) − mean(A),
/// each run's clips resampled on their own; the test is the two-sided Mann-Whitney U test with
/// SciPy's defaults. In both, p-values are Holm-corrected across the rows reported, and a row is
/// significant when its corrected p is below ``Request/alpha``.
public struct RunDiff: Sendable, Codable {
    /// What to compare.
    public struct Request: Sendable {
        /// Metric names to compare (nil: every metric both runs scored, in A's order).
        public var metrics: [String]?
        /// Subset labels (`all`, `snr=0`, `split=test`, `snr=[0,5)`; `snr=X` also names the 5 dB band
        /// holding X); nil: every subset of the clips compared, as `sekit score` summarises them.
        public var subsets: [String]?
        /// Compare runs scored on different corpora (unpaired statistics).
        public var unpaired = false
        public var resamples = 10_000
        public var seed: UInt64 = 0
        public var confidence = 0.95
        /// Family-wise error rate of the Holm correction (significance marker).
        public var alpha = 0.05

        public init(metrics: [String]? = nil, subsets: [String]? = nil, unpaired: Bool = false) {
            self.metrics = metrics; self.subsets = subsets; self.unpaired = unpaired
        }
    }

    /// One side of the comparison.
    public struct Side: Sendable, Codable {
        public var id: RunID
        public var name: String
        public var corpus: ScoredCorpus
        /// Clips the run has any score row for.
        public var clips: Int
    }

    /// A parameter that differs between the two runs' lineages. `key` is `KIND.KEY` (for example
    /// `score.enhanced`, `mix.seed`); a nil side has no such parameter.
    public struct ParamDifference: Sendable, Codable, Equatable {
        public var key: String
        public var a: String?
        public var b: String?
    }

    /// One metric over one subset of clips.
    public struct Row: Sendable, Codable {
        public var metric: String
        public var subset: String
        /// Means over the clips compared (paired: the same clips for both).
        public var meanA: Double
        public var meanB: Double
        /// meanB − meanA (paired: the mean per-clip difference).
        public var difference: Double
        /// Bootstrap percentile interval of `difference`.
        public var ciLow: Double
        public var ciHigh: Double
        /// `wilcoxon` (paired) or `mann-whitney` (unpaired).
        public var test: String
        /// How the p-value was computed: `exact` (the exact null distribution), `permutation`
        /// (every sign flip enumerated: Wilcoxon with ties or zeros and at most 13 clips) or
        /// `normal` (the normal approximation); nil without a test.
        public var method: String?
        /// Wilcoxon's T (the smaller of the signed-rank sums) or Mann-Whitney's U of A.
        public var statistic: Double?
        /// Two-sided p-value; nil when the test cannot be made (every difference zero).
        public var p: Double?
        /// Holm-corrected p across the rows reported.
        public var pHolm: Double?
        public var significant: Bool
        /// Paired clips (paired), or clips of A and of B (unpaired).
        public var n: Int
        public var nA: Int
        public var nB: Int
        /// Which way is better for this metric (false for LLR, WSS, CD); nil when unknown.
        public var higherIsBetter: Bool?
    }

    public var a: Side
    public var b: Side
    public var paired: Bool
    public var resamples: Int
    public var seed: UInt64
    public var confidence: Double
    public var alpha: Double
    public var params: [ParamDifference]
    public var rows: [Row]
    /// Clips only one run scored (paired comparisons), by id.
    public var onlyInA: [String]
    public var onlyInB: [String]
    /// Per metric, clips both runs scored where at least one value is missing (a failed metric)
    /// or not finite, so the clip was left out of that metric's rows.
    public var unpairedValues: [String: Int]
}
