import Foundation

/// The outcome of a two-sided Mann-Whitney U test.
public struct MannWhitneyResult: Sendable, Equatable, Codable {
    /// How the p-value was computed (chosen from the data as `scipy.stats.mannwhitneyu(method='auto')` does).
    public enum Method: String, Sendable, Codable {
        /// The exact null distribution of U (one sample has at most 8 values and there are no ties).
        case exact
        /// The normal approximation with tie and continuity corrections.
        case normal
    }

    /// U₁, the statistic of the first sample `x`: the number of pairs (xᵢ, yⱼ) with xᵢ > yⱼ,
    /// ties counting ½. The second sample's is nx·ny − U₁.
    public var statistic: Double
    public var pValue: Double
    public var nx: Int
    public var ny: Int
    public var method: Method
}

/// The Mann-Whitney U test of two independent samples (Mann & Whitney 1947), two-sided, with
/// exactly the conventions of `scipy.stats.mannwhitneyu(x, y)` in scipy 1.17 with its defaults:
///
/// - U₁ = R₁ − nx(nx + 1)/2, R₁ the sum of the average ranks of x in the pooled sample.
/// - `method='auto'`: exact when one sample has at most 8 values and no value is tied (in the
///   pooled sample); the normal approximation otherwise.
/// - Exact: p = 2·P(U ≥ max(U₁, U₂)), at most 1, from the exact distribution of U.
/// - Normal (`use_continuity=True`): z = (max(U₁, U₂) − nx·ny/2 − ½)/σ with
///   σ² = nx·ny/12·[(N + 1) − Σ(t³ − t)/(N(N − 1))], N = nx + ny; p = 2·Φ(−z), at most 1.
///   When every value is tied, σ = 0 and p = 1, as in scipy.
///
/// One deviation: the exact distribution is counted in 128-bit integers; beyond 2¹²⁷ arrangements
/// (a sample of at most 8 values against one of about 200,000 without a single tie) the normal
/// approximation is used, where scipy would still sum its exact distribution in floating point.
public enum MannWhitneyU {
    /// scipy's exact method applies when one sample has at most this many values (and no ties).
    static let exactLimit = 8

    /// Tests whether `x` and `y` come from the same distribution (against a shift either way).
    /// - Parameters:
    ///   - x: the first sample (run A's per-clip values); the statistic is its U.
    ///   - y: the second sample (run B's); ±infinity is ranked like any value.
    /// - Throws: ``StatisticsError/empty(parameter:)`` when a sample is empty (scipy raises too),
    ///   ``StatisticsError/nonFinite(parameter:index:value:)`` for a NaN.
    /// - Complexity: O(N log N); the exact distribution O(min(nx, ny)·nx·ny).
    public static func test(_ x: [Double], _ y: [Double]) throws(StatisticsError) -> MannWhitneyResult {
        try StatisticsError.checkValues(x, parameter: "x", allowInfinity: true)
        try StatisticsError.checkValues(y, parameter: "y", allowInfinity: true)
        guard !x.isEmpty else { throw StatisticsError.empty(parameter: "x") }
        guard !y.isEmpty else { throw StatisticsError.empty(parameter: "y") }
        let nx = x.count, ny = y.count

        // Pooled values with their origin; the order within a tie group does not matter.
        let pooled = (x.map { ($0, true) } + y.map { ($0, false) }).sorted { $0.0 < $1.0 }
        var doubledRankSumX = 0
        var hasTies = false
        let tieTerm = TiedRanks.forEachGroup(pooled.map(\.0)) { group, doubledRank in
            if group.count > 1 { hasTies = true }
            for i in group where pooled[i].1 { doubledRankSumX += doubledRank }
        }
        let u1 = Double(doubledRankSumX) / 2 - Double(nx * (nx + 1)) / 2
        let u2 = Double(nx * ny) - u1
        let u = max(u1, u2)

        if (nx <= exactLimit || ny <= exactLimit) && !hasTies,
           let distribution = MannWhitneyDistribution(nx: nx, ny: ny) {
            // Without ties U is an integer; by symmetry P(U ≥ u) = P(U ≤ nx·ny − u).
            let tail = distribution.cdf(nx * ny - Int(u))
            return MannWhitneyResult(statistic: u1, pValue: min(1, 2 * tail), nx: nx, ny: ny, method: .exact)
        }
        // scipy's arithmetic, operation for operation.
        let n = nx + ny
        let sigma = (Double(nx * ny) / 12 * (Double(n + 1) - tieTerm / Double(n * (n - 1)))).squareRoot()
        let z = (u - Double(nx * ny) / 2 - 0.5) / sigma
        let pValue = min(1, 2 * StandardNormal.cdf(-z))
        return MannWhitneyResult(statistic: u1, pValue: pValue, nx: nx, ny: ny, method: .normal)
    }
}
