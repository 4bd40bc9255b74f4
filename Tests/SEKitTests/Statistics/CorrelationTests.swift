import Foundation
import Testing

@testable import SEKitSignal

/// Correlations and the P.1401 mapping against SciPy 1.17.1 / NumPy, pinned. The expected values were
/// computed with /work/main/.build/venv/bin/python:
/// `scipy.stats.pearsonr(x, y)` (and `.confidence_interval(0.95)`), `spearmanr(x, y).statistic`,
/// `kendalltau(x, y).statistic` (tau-b), the Fisher-z intervals `tanh(arctanh(r) ∓ norm.ppf(0.975)·σ)`
/// with σ = √(1.06/(n−3)) (Spearman) and √(0.437/(n−4)) (Kendall), `numpy.polyfit(x, y, 3)` and
/// `sqrt(sum((y − polyval(c, x))²)/(n − 4))`.
@Suite struct CorrelationTests {
    static let x = [3.1, 2.4, 4.8, 1.2, 3.3, 2.4, 4.1, 0.7, 2.9, 3.8, 1.9, 4.4]
    static let y: [Double] = [62, 55, 80, 30, 70, 48, 77, 25, 50, 71, 45, 74]

    func expect(_ estimate: CorrelationEstimate, _ r: Double, _ low: Double, _ high: Double) {
        #expect(abs(estimate.r - r) < 1e-12, "r \(estimate.r) against \(r)")
        #expect(abs(estimate.ci95Low - low) < 1e-9, "low \(estimate.ci95Low) against \(low)")
        #expect(abs(estimate.ci95High - high) < 1e-9, "high \(estimate.ci95High) against \(high)")
        #expect(estimate.n == Self.x.count)
    }

    @Test func matchesSciPy() throws {
        expect(try Correlation.pearson(Self.x, Self.y), 0.9729123895654003, 0.9034669705816706, 0.9925934850234818)
        expect(try Correlation.spearman(Self.x, Self.y), 0.9807370556736849, 0.9280137227630031, 0.9949466035845302)
        expect(try Correlation.kendall(Self.x, Self.y), 0.9313248452425005, 0.8367407868893492, 0.9719486089571201)
        #expect(Correlation.averageRanks(Self.x) == [7, 4.5, 12, 2, 8, 4.5, 10, 1, 6, 9, 3, 11])
    }

    @Test func thirdOrderMappingMatchesPolyfit() throws {
        let mapping = try PolynomialMapping(x: Self.x, y: Self.y)
        let expected = [17.81442283969136, 7.241011205748697, 4.193293173579926, -0.6314876299704465]
        for (a, b) in zip(mapping.coefficients, expected) { #expect(abs(a - b) < 1e-8 * max(1, abs(b)), "\(a) against \(b)") }
        #expect(abs(mapping.rmse - 4.4023698121414085) < 1e-9)
        #expect(mapping.n == 12)
        #expect(
            abs(mapping(3.1) - (17.81442283969136 + 3.1 * (7.241011205748697 + 3.1 * (4.193293173579926 - 3.1 * 0.6314876299704465))))
                < 1e-8)
    }

    /// P.1401 §7.3 on the same data with a half-width per point. |y − ŷ| is 0.254, 4.383, 0.653, 1.451,
    /// 5.319, 2.617, 2.531, 0.279, 8.678, 0.230, 2.621, 3.064; less the half-widths below, the points
    /// left outside their interval are the 4th (0.951), 5th (2.319), 7th (0.031), 9th (2.678) and
    /// 12th (1.564): rmse* = √((0.951² + 2.319² + 0.031² + 2.678² + 1.564²)/8) = 1.4098 (numpy:
    /// `sqrt(sum(maximum(0, abs(y − polyval(polyfit(x, y, 3), x)) − ci)²)/(12 − 4))` = 1.4097757714657162).
    @Test func epsilonInsensitiveRMSEFollowsP1401() throws {
        let mapping = try PolynomialMapping(x: Self.x, y: Self.y)
        let ci95 = [2.0, 5.0, 1.0, 0.5, 3.0, 4.0, 2.5, 1.0, 6.0, 2.0, 3.0, 1.5]
        let handComputed = ((0.95076783 * 0.95076783 + 2.31904848 * 2.31904848 + 0.03093191 * 0.03093191
            + 2.67759912 * 2.67759912 + 1.56438571 * 1.56438571) / 8).squareRoot()
        let rmseStar = try mapping.epsilonInsensitiveRMSE(x: Self.x, y: Self.y, ci95: ci95)
        #expect(abs(rmseStar - handComputed) < 1e-7)
        #expect(abs(rmseStar - 1.4097757714657162) < 1e-9)
        // No uncertainty: the plain RMSE after mapping; an interval wider than every error: 0.
        let zero = try mapping.epsilonInsensitiveRMSE(x: Self.x, y: Self.y, ci95: Array(repeating: 0, count: 12))
        #expect(abs(zero - mapping.rmse) < 1e-9)
        #expect(try mapping.epsilonInsensitiveRMSE(x: Self.x, y: Self.y, ci95: Array(repeating: 9, count: 12)) == 0)
        #expect(throws: StatisticsError.self) { try mapping.epsilonInsensitiveRMSE(x: Self.x, y: Self.y, ci95: [1, 2]) }
        #expect(throws: StatisticsError.self) {
            try mapping.epsilonInsensitiveRMSE(x: Self.x, y: Self.y, ci95: [-1] + Array(repeating: 0, count: 11))
        }
    }

    @Test func badInputIsNamed() {
        #expect(throws: StatisticsError.self) { try Correlation.pearson([1, 2, 3], [1, 2]) }
        #expect(throws: StatisticsError.self) { try Correlation.kendall([1, 1, 1], [1, 2, 3]) }
        #expect(throws: StatisticsError.self) { try Correlation.spearman([1, .nan, 3], [1, 2, 3]) }
        #expect(throws: StatisticsError.self) { try PolynomialMapping(x: [1, 2, 3, 4], y: [1, 2, 3, 4]) }
        #expect(throws: StatisticsError.self) { try PolynomialMapping(x: [1, 1, 2, 2, 1], y: [1, 2, 3, 4, 5]) }
        // Three pairs: a coefficient, no interval.
        let small = try? Correlation.pearson([1, 2, 3], [1, 3, 2])
        #expect(small?.ci95Low.isNaN == true && small?.r == 0.5)
    }
}
