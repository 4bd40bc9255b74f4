import Foundation

/// A correlation coefficient with its 95% confidence interval and sample size.
public struct CorrelationEstimate: Sendable, Equatable, Codable {
    /// The coefficient, in [−1, 1].
    public var r: Double
    /// Lower end of the 95% interval (Fisher z; see ``Correlation``); NaN when n is too small.
    public var ci95Low: Double
    /// Upper end of the 95% interval; NaN when n is too small.
    public var ci95High: Double
    public var n: Int

    public init(r: Double, ci95Low: Double, ci95High: Double, n: Int) {
        self.r = r
        self.ci95Low = ci95Low
        self.ci95High = ci95High
        self.n = n
    }
}

/// Pearson, Spearman and Kendall correlations, matched to `scipy.stats.pearsonr`, `spearmanr` and
/// `kendalltau` (tau-b, ties in either variable corrected) of SciPy 1.17.
///
/// Intervals are Fisher-z intervals: tanh(atanh(r) ∓ 1.959964·σ) with σ = 1/√(n − 3) for Pearson
/// (what `pearsonr(...).confidence_interval()` gives), √(1.06/(n − 3)) for Spearman and
/// √(0.437/(n − 4)) for Kendall (Fieller, Hartley & Pearson, Biometrika 44, 1957). Pearson needs
/// n ≥ 4 for an interval, Spearman n ≥ 4, Kendall n ≥ 5; smaller samples give NaN ends.
public enum Correlation {
    /// Φ⁻¹(0.975), the normal quantile of a two-sided 95% interval.
    public static let z975 = 1.959963984540054

    /// Pearson's product-moment r of `x` and `y`.
    /// - Throws: ``StatisticsError`` for samples of different lengths, fewer than 2 values, a
    ///   non-finite value, or a constant sample (r undefined).
    public static func pearson(_ x: [Double], _ y: [Double]) throws(StatisticsError) -> CorrelationEstimate {
        try checkPair(x, y)
        let r = try pearsonR(x, y)
        return interval(r: r, n: x.count, sigma: x.count > 3 ? 1 / Double(x.count - 3).squareRoot() : .nan)
    }

    /// Spearman's ρ: Pearson's r of the average ranks (`scipy.stats.rankdata`'s midranks).
    /// - Throws: as ``pearson(_:_:)``.
    public static func spearman(_ x: [Double], _ y: [Double]) throws(StatisticsError) -> CorrelationEstimate {
        try checkPair(x, y)
        let r = try pearsonR(averageRanks(x), averageRanks(y))
        return interval(r: r, n: x.count, sigma: x.count > 3 ? (1.06 / Double(x.count - 3)).squareRoot() : .nan)
    }

    /// Kendall's τ-b: (concordant − discordant) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n − 1)/2 and
    /// n₁, n₂ the pairs tied in x and in y.
    /// - Throws: as ``pearson(_:_:)``.
    /// - Complexity: O(n²).
    public static func kendall(_ x: [Double], _ y: [Double]) throws(StatisticsError) -> CorrelationEstimate {
        try checkPair(x, y)
        let n = x.count
        var concordant = 0
        var discordant = 0
        var tiedX = 0
        var tiedY = 0
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                for i in 0..<n {
                    let xi = x[i]
                    let yi = y[i]
                    for j in (i + 1)..<max(i + 1, n) {
                        let dx = x[j] - xi
                        let dy = y[j] - yi
                        if dx == 0 { tiedX += 1 }
                        if dy == 0 { tiedY += 1 }
                        if dx == 0 || dy == 0 { continue }
                        if (dx > 0) == (dy > 0) { concordant += 1 } else { discordant += 1 }
                    }
                }
            }
        }
        let pairs = Double(n * (n - 1) / 2)
        let denominator = ((pairs - Double(tiedX)) * (pairs - Double(tiedY))).squareRoot()
        guard denominator > 0 else {
            throw .invalidParameter(name: "x, y", value: "constant", reason: "a constant sample has no correlation")
        }
        let tau = Double(concordant - discordant) / denominator
        return interval(r: tau, n: n, sigma: n > 4 ? (0.437 / Double(n - 4)).squareRoot() : .nan)
    }

    /// Midranks (1-based) of `values`, as `scipy.stats.rankdata(values, method='average')`.
    public static func averageRanks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        TiedRanks.forEachGroup(order.map { values[$0] }) { range, doubledRank in
            for position in range { ranks[order[position]] = Double(doubledRank) / 2 }
        }
        return ranks
    }

    static func checkPair(_ x: [Double], _ y: [Double]) throws(StatisticsError) {
        guard x.count == y.count else {
            throw .invalidParameter(name: "y", value: "\(y.count) values", reason: "x has \(x.count); pairs need as many of each")
        }
        guard x.count >= 2 else {
            throw .invalidParameter(name: "x", value: "\(x.count) values", reason: "a correlation needs at least 2 pairs")
        }
        try StatisticsError.checkValues(x, parameter: "x", allowInfinity: false)
        try StatisticsError.checkValues(y, parameter: "y", allowInfinity: false)
    }

    static func pearsonR(_ x: [Double], _ y: [Double]) throws(StatisticsError) -> Double {
        let n = Double(x.count)
        let meanX = x.reduce(0, +) / n
        let meanY = y.reduce(0, +) / n
        var sxy = 0.0
        var sxx = 0.0
        var syy = 0.0
        for i in x.indices {
            let dx = x[i] - meanX
            let dy = y[i] - meanY
            sxy += dx * dy
            sxx += dx * dx
            syy += dy * dy
        }
        guard sxx > 0, syy > 0 else {
            throw .invalidParameter(name: "x, y", value: "constant", reason: "a constant sample has no correlation")
        }
        return max(-1, min(1, sxy / (sxx * syy).squareRoot()))
    }

    static func interval(r: Double, n: Int, sigma: Double) -> CorrelationEstimate {
        guard sigma.isFinite else { return CorrelationEstimate(r: r, ci95Low: .nan, ci95High: .nan, n: n) }
        let z = atanh(r)
        return CorrelationEstimate(r: r, ci95Low: tanh(z - z975 * sigma), ci95High: tanh(z + z975 * sigma), n: n)
    }
}
