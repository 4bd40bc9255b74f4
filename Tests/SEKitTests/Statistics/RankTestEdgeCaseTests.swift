import Testing
@testable import SEKit
@testable import SEKitSignal

/// What the rank tests do where scipy returns NaN, raises, or where the input is not data.
@Suite struct RankTestEdgeCaseTests {
    @Test func wilcoxonWithoutNonZeroDifferencesIsNil() throws {
        #expect(try WilcoxonSignedRank.test(differences: []) == nil)
        #expect(try WilcoxonSignedRank.test(differences: [0, 0, 0]) == nil)
        #expect(try WilcoxonSignedRank.test(differences: [Double](repeating: 0, count: 100)) == nil)
    }

    @Test func wilcoxonRefusesNaNAndNamesIt() {
        #expect(throws: StatisticsError.self) { try WilcoxonSignedRank.test(differences: [1, .nan]) }
        do {
            _ = try WilcoxonSignedRank.test(differences: [1, 2, .nan])
        } catch {
            #expect(error.description == "differences has nan at index 2")
        }
    }

    /// Worked by hand: d = 1, −2, 3, 4, 5 has ranks 1 ... 5, R₊ = 13, R₋ = 2. Of the 32 sign
    /// patterns, R₊ ≥ 13 when the negative ranks sum to at most 2: {}, {1}, {2}; so
    /// p = 2·3/32 = 0.1875 (scipy: `wilcoxon([1, -2, 3, 4, 5])` → (2.0, 0.1875)).
    @Test func wilcoxonSmallExactCase() throws {
        let result = try #require(try WilcoxonSignedRank.test(differences: [1, -2, 3, 4, 5]))
        #expect(result.statistic == 2 && result.positiveRankSum == 13 && result.negativeRankSum == 2)
        #expect(result.method == .exact && result.n == 5 && result.zeros == 0 && result.z == nil)
        #expect(result.pValue == 0.1875)
    }

    @Test func mannWhitneyRefusesEmptySamplesAndNaN() {
        #expect(throws: StatisticsError.empty(parameter: "x")) { try MannWhitneyU.test([], [1]) }
        #expect(throws: StatisticsError.empty(parameter: "y")) { try MannWhitneyU.test([1], []) }
        #expect(throws: StatisticsError.self) { try MannWhitneyU.test([.nan], [1]) }
    }

    /// scipy's documented example (Shier 2004): U = 17, exact p = 1/9.
    @Test func mannWhitneyScipyDocumentationExample() throws {
        let result = try MannWhitneyU.test([19, 22, 16, 29, 24], [20, 11, 17, 12])
        #expect(result.statistic == 17 && result.method == .exact)
        #expect(abs(result.pValue - 0.1111111111111111) < 1e-16)
    }

    /// The exact counts agree with brute-force enumeration of every arrangement.
    @Test func mannWhitneyExactCountsMatchEnumeration() throws {
        for (nx, ny) in [(1, 1), (2, 5), (3, 3), (4, 6)] {
            let n = nx + ny
            var counts = [Int](repeating: 0, count: nx * ny + 1)
            for mask in 0..<(1 << n) where mask.nonzeroBitCount == nx {
                // x takes the ranks whose bits are set; U counts (x, y) pairs with x above y.
                var u = 0
                for i in 0..<n where mask & (1 << i) != 0 { for j in 0..<i where mask & (1 << j) == 0 { u += 1 } }
                counts[u] += 1
            }
            let total = Double(counts.reduce(0, +))
            let distribution = try #require(MannWhitneyDistribution(nx: nx, ny: ny))
            var cumulative = 0
            for k in 0..<counts.count {
                cumulative += counts[k]
                #expect(abs(distribution.cdf(k) - Double(cumulative) / total) < 1e-15, "\(nx) vs \(ny), k = \(k)")
            }
        }
    }
}
