import Foundation

/// The outcome of a two-sided Wilcoxon signed-rank test.
public struct WilcoxonResult: Sendable, Equatable, Codable {
    /// How the p-value was computed (chosen from the data as `scipy.stats.wilcoxon(method='auto')` does).
    public enum Method: String, Sendable, Codable {
        /// The exact null distribution of the signed-rank statistic (no ties, no zeros, n ≤ 50).
        case exact
        /// All 2ⁿ sign flips of the non-zero differences enumerated (ties or zeros and at most 13
        /// differences, zeros included): scipy's `PermutationMethod()`, which is exact here
        /// because 2¹³ < its 9,999 resamples.
        case permutation
        /// The normal approximation with the tie correction of the variance and no continuity
        /// correction (more than 50 differences, or ties or zeros and more than 13).
        case normal
    }

    /// min(R₊, R₋), the statistic scipy reports for the two-sided test.
    public var statistic: Double
    public var pValue: Double
    /// Non-zero differences: the sample size of the test (zeros are dropped, `zero_method='wilcox'`).
    public var n: Int
    /// Differences exactly equal to zero (left out of the ranking).
    public var zeros: Int
    /// R₊: the sum of the ranks of |d| over the positive differences (average ranks for ties).
    public var positiveRankSum: Double
    /// R₋: the same over the negative differences; R₊ + R₋ = n(n + 1)/2.
    public var negativeRankSum: Double
    public var method: Method
    /// (R₊ − n(n + 1)/4)/σ for ``Method/normal``, nil otherwise (signed: positive when the
    /// differences lean positive).
    public var z: Double?
}

/// The Wilcoxon signed-rank test of paired differences (Wilcoxon 1945), two-sided, with exactly
/// the conventions of `scipy.stats.wilcoxon(d)` in scipy 1.17 with all its defaults:
///
/// - `zero_method='wilcox'`: zero differences are dropped before ranking; n counts the rest.
/// - Ranks of |d| are average ranks; the variance of the normal approximation is corrected for
///   ties: σ² = [n(n + 1)(2n + 1) − Σ(t³ − t)/2]/24.
/// - `correction=False`: no continuity correction; `alternative='two-sided'`.
/// - `method='auto'`: with more than 50 differences (zeros counted) the normal approximation;
///   otherwise the exact distribution when there are no ties and no zeros; otherwise, with at
///   most 13 differences (zeros counted), all 2ⁿ sign flips; otherwise the normal approximation.
///   The exact and sign-flip p-values are 2·min(P(R₊ ≤ r), P(R₊ ≥ r)), at most 1; the normal one
///   is 2·Φ(−|z|).
/// - The statistic is min(R₊, R₋).
///
/// Differences are compared exactly: values meant to be equal must be equal in `Double` (scipy
/// warns about the same: round B − A if it comes from decimal data).
public enum WilcoxonSignedRank {
    /// Above this many differences (zeros included) scipy goes straight to the normal approximation.
    static let exactLimit = 50
    /// At most this many differences (zeros included), scipy enumerates all sign flips when there
    /// are ties or zeros: 2¹³ ≤ 9,999, the default resample count of `PermutationMethod`.
    static let signFlipLimit = 13

    /// Tests whether paired differences (B − A per clip) are symmetric about zero.
    /// - Parameter differences: one value per pair, any order; ±infinity is ranked like any value.
    /// - Returns: nil when no non-zero difference remains (no pairs, or B equals A on every pair):
    ///   there is nothing to test. (scipy returns a p-value of NaN or 1 there, depending on n.)
    /// - Throws: ``StatisticsError/nonFinite(parameter:index:value:)`` for a NaN difference.
    /// - Complexity: O(n log n); the exact distributions take O(n³) at most (n ≤ 50).
    public static func test(differences: [Double]) throws(StatisticsError) -> WilcoxonResult? {
        try StatisticsError.checkValues(differences, parameter: "differences", allowInfinity: true)
        let nonZero = differences.filter { $0 != 0 }
        let zeros = differences.count - nonZero.count
        guard !nonZero.isEmpty else { return nil }
        let n = nonZero.count

        let byMagnitude = nonZero.sorted { abs($0) < abs($1) }
        var doubledRanks = [Int](repeating: 0, count: n)
        var doubledPositive = 0
        var hasTies = false
        let tieTerm = TiedRanks.forEachGroup(byMagnitude.map { abs($0) }) { group, doubledRank in
            if group.count > 1 { hasTies = true }
            for i in group {
                doubledRanks[i] = doubledRank
                if byMagnitude[i] > 0 { doubledPositive += doubledRank }
            }
        }
        let doubledTotal = n * (n + 1)
        let positiveRankSum = Double(doubledPositive) / 2
        let negativeRankSum = Double(doubledTotal - doubledPositive) / 2

        let method: WilcoxonResult.Method
        if differences.count > exactLimit { method = .normal }
        else if !hasTies && zeros == 0 { method = .exact }
        else if differences.count <= signFlipLimit { method = .permutation }
        else { method = .normal }

        var z: Double? = nil
        let pValue: Double
        switch method {
        case .exact, .permutation:
            // Without ties the doubled ranks are 2, 4, ..., 2n, so both cases are the distribution
            // of the sum of a random subset of the doubled ranks.
            pValue = signFlipPValue(doubledRanks: doubledRanks, observed: doubledPositive)
        case .normal:
            // scipy's arithmetic, operation for operation, so z agrees to the last bit.
            let count = Double(n)
            let mean = count * (count + 1) * 0.25
            let variance24 = count * (count + 1) * (2 * count + 1) - tieTerm / 2
            let sigma = (variance24 / 24).squareRoot()
            let zValue = (positiveRankSum - mean) / sigma
            z = zValue
            pValue = 2 * StandardNormal.cdf(-abs(zValue))
        }
        return WilcoxonResult(statistic: min(positiveRankSum, negativeRankSum), pValue: pValue, n: n, zeros: zeros,
                              positiveRankSum: positiveRankSum, negativeRankSum: negativeRankSum, method: method, z: z)
    }

    /// 2·min(P(S ≤ observed), P(S ≥ observed)), at most 1, where S is the sum of a uniformly random
    /// subset of `doubledRanks` (each rank's sign flipped with probability ½).
    ///
    /// Counts are exact integers (at most 2⁵⁰ subsets here) and the result is one division by 2ⁿ,
    /// so it is the exact dyadic value scipy's float sums also reach.
    static func signFlipPValue(doubledRanks: [Int], observed: Int) -> Double {
        precondition(doubledRanks.count <= exactLimit, "sign-flip distribution beyond \(exactLimit) values")
        let total = doubledRanks.reduce(0, +)
        var counts = [UInt64](repeating: 0, count: total + 1)
        counts[0] = 1
        var reach = 0
        for rank in doubledRanks {
            reach += rank
            for s in stride(from: reach, through: rank, by: -1) { counts[s] &+= counts[s - rank] }
        }
        let atMost = counts[0...observed].reduce(0, &+)
        let atLeast = counts[observed...].reduce(0, &+)
        let subsets = Double(sign: .plus, exponent: doubledRanks.count, significand: 1)
        return min(1, 2 * Double(min(atMost, atLeast)) / subsets)
    }
}
