import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct RankingTests {
    @Test func denseRanksShareEqualValuesAndSkipNothing() {
        #expect(Ranking.denseRanks([0.9, 0.8, 0.8, 0.7], higherIsBetter: true) == [1, 2, 2, 3])
        #expect(Ranking.denseRanks([0.9, 0.8, 0.8, 0.7], higherIsBetter: false) == [3, 2, 2, 1])
        #expect(Ranking.denseRanks([3, 1, 2, 1, 3], higherIsBetter: true) == [1, 3, 2, 3, 1])
        #expect(Ranking.denseRanks([], higherIsBetter: true) == [])
        #expect(Ranking.denseRanks([5], higherIsBetter: false) == [1])
        #expect(Ranking.denseRanks([0.0, -0.0], higherIsBetter: true) == [1, 1])
    }

    @Test func infinitiesRankAsValuesAndNaNRanksLast() {
        #expect(Ranking.denseRanks([10, .infinity, -.infinity], higherIsBetter: true) == [2, 1, 3])
        #expect(Ranking.denseRanks([.nan, 2, .nan, 1], higherIsBetter: true) == [3, 1, 3, 2])
        #expect(Ranking.denseRanks([.nan, 2, .nan, 1], higherIsBetter: false) == [3, 2, 3, 1])
    }

    /// Three systems, STOI (higher is better) and LLR (lower is better).
    @Test func meanRanksAverageOverColumns() {
        let stoi = [0.80, 0.85, 0.85], llr = [0.9, 0.7, 1.1]
        // STOI ranks 2, 1, 1; LLR ranks 2, 1, 3.
        #expect(Ranking.meanDenseRanks(columns: [stoi, llr], higherIsBetter: [true, false]) == [2, 1, 2])
        #expect(Ranking.meanDenseRanks(columns: [], higherIsBetter: []) == [])
    }
}
