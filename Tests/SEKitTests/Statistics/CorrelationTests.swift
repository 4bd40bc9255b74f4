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
