import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `runs diff`, `best` and `leaderboard` on a real pipeline: a corpus mixed from the fixtures'
/// speech and noise, the oracle ratio mask resynthesised, both scored into one catalogue. The
/// oracle is known to be better than the noisy input; a copy of the oracle's scores with jitter
/// below 1e-3 (dB or STOI units) differs by noise only.
@Suite(.needsFixtures, .serialized)
struct RunDiffTests {
    @Test func theOracleMaskIsSignificantlyBetterThanTheNoisyInputOnEveryMetricAndSNR() throws {
        let p = try ComparisonPipeline.shared.get()
        let diff = try RunDiff.compute("noisy", "oracle-irm", in: p.catalog)
        #expect(diff.paired && diff.onlyInA.isEmpty && diff.onlyInB.isEmpty)
        #expect(diff.params.contains { $0.key == "score.enhanced" && $0.a == nil && $0.b != nil })
        #expect(diff.params.allSatisfy { !$0.key.hasPrefix("mix.") }, "the shared mix run has no differences with itself")
        let all = diff.rows.filter { $0.subset == "all" }
        #expect(all.map(\.metric) == ["snr", "sisdr", "stoi"])
        #expect(Set(diff.rows.map(\.subset)) == ["all", "snr=-5", "snr=0", "snr=5", "split=test", "split=train"])
        for row in all {
            #expect(row.n == 36 && row.test == "wilcoxon")
            #expect(row.difference > 0 && row.ciLow > 0 && row.ciLow <= row.difference && row.difference <= row.ciHigh, "\(row)")
            #expect(abs(row.difference - (row.meanB - row.meanA)) < 1e-9)
            #expect(row.significant, "\(row.metric): p = \(row.p ?? .nan), Holm \(row.pHolm ?? .nan)")
        }
        // Per SNR: a dozen clips or so, each improved: the exact Wilcoxon p is tiny.
        for row in diff.rows where row.subset.hasPrefix("snr=") && row.n >= 8 {
            #expect((row.p ?? 1) < 0.01, "\(row.metric) \(row.subset): p = \(row.p ?? .nan)")
        }
    }

    @Test func aCopyWithJitterBelowOneThousandthIsNotSignificant() throws {
        let p = try ComparisonPipeline.shared.get()
        let diff = try RunDiff.compute("oracle-irm", "oracle-jitter", in: p.catalog)
        #expect(!diff.rows.isEmpty)
        for row in diff.rows {
            #expect(!row.significant, "\(row.metric) \(row.subset): Holm p = \(row.pHolm ?? .nan)")
            #expect(abs(row.difference) < 5e-4 && row.ciLow < row.ciHigh)
        }
    }

    @Test func theBootstrapIsReproducibleForASeedAndTheSeedIsReported() throws {
        let p = try ComparisonPipeline.shared.get()
        var request = RunDiff.Request(metrics: ["stoi"], subsets: ["all"])
        request.seed = 11
        let first = try RunDiff.compute("noisy", "oracle-irm", request: request, in: p.catalog)
        let second = try RunDiff.compute("noisy", "oracle-irm", request: request, in: p.catalog)
        request.seed = 12
        let other = try RunDiff.compute("noisy", "oracle-irm", request: request, in: p.catalog)
        #expect(first.seed == 11 && first.rows.count == 1)
        #expect(first.rows[0].ciLow == second.rows[0].ciLow && first.rows[0].ciHigh == second.rows[0].ciHigh)
        #expect(first.rows[0].ciLow != other.rows[0].ciLow || first.rows[0].ciHigh != other.rows[0].ciHigh)
        #expect(try first.rendered(.table).contains("seed 11"))
    }

    @Test func clipsScoredByOneRunAreCountedAndNamed() throws {
        let p = try ComparisonPipeline.shared.get()
        let diff = try RunDiff.compute("oracle-irm", "oracle-test", in: p.catalog)
        #expect(diff.onlyInA.count == 36 - diff.rows.first { $0.subset == "all" }!.n)
        #expect(diff.onlyInA.count > 0 && diff.onlyInB.isEmpty)
        #expect(diff.rows.allSatisfy { $0.subset != "split=train" })
        let text = try diff.rendered(.table)
        #expect(text.contains("\(diff.onlyInA.count) clip(s) scored only by A") && text.contains(diff.onlyInA[0]))
    }

    @Test func runsOnDifferentCorporaNeedUnpaired() throws {
        let p = try ComparisonPipeline.shared.get()
        #expect(throws: ComparisonError.self) { try RunDiff.compute("noisy", "oracle-by-folder", in: p.catalog) }
        let diff = try RunDiff.compute("noisy", "oracle-by-folder", request: RunDiff.Request(metrics: ["sisdr"], unpaired: true),
                                       in: p.catalog)
        #expect(!diff.paired && diff.rows.count == 1 && diff.rows[0].test == "mann-whitney")
        #expect(diff.rows[0].nA == 36 && diff.rows[0].nB == 36 && diff.rows[0].significant)
    }

    @Test func bestRespectsDirectionAndTheLeaderboardRanks() throws {
        let p = try ComparisonPipeline.shared.get()
        let best = try BestRun.find(BestRun.Request(metric: "stoi", corpus: p.mixRun.rawValue), in: p.catalog)
        #expect(["oracle-irm", "oracle-jitter", "oracle-test"].contains(best.best.name) && best.runnerUp != nil)
        let worst = try BestRun.find(BestRun.Request(metric: "stoi", filter: "name = 'noisy'"), in: p.catalog)
        #expect(worst.best.name == "noisy" && worst.runnerUp == nil && worst.candidates == 1)
        #expect(throws: ComparisonError.self) { try BestRun.find(BestRun.Request(metric: "no-such-metric"), in: p.catalog) }

        let board = try Leaderboard.make(Leaderboard.Request(corpus: p.mixRun.rawValue, metrics: ["sisdr", "stoi"]), from: p.catalog)
        #expect(board.rows.first?.isReference == true && board.rows.first?.name == "noisy")
        #expect(Set(board.rows.dropFirst().map(\.name)).isSuperset(of: ["oracle-irm", "oracle-jitter", "oracle-test"]))
        // The noisy reference is worse than every checkpoint and is neither ranked nor marked.
        #expect(board.rows[0].meanRank == nil && board.rows[0].cells.allSatisfy { $0?.best == false })
        // oracle-by-folder scored the synthesized folder, which names its synthesize run: through that
        // lineage it is on the corpus's board, with the one metric it scored (sisdr), stoi empty.
        let byFolder = try #require(board.rows.first { $0.name == "oracle-by-folder" })
        #expect(byFolder.cells[0] != nil && byFolder.cells[1] == nil)
        for row in board.rows.dropFirst() where row.cells[1] != nil { #expect(row.cells[1]!.mean > board.rows[0].cells[1]!.mean) }
        // Ranks ascend down the board; each column's best is marked once at least.
        let ranks = board.rows.dropFirst().compactMap(\.meanRank)
        #expect(ranks == ranks.sorted() && ranks.first == 1 || ranks.first.map { $0 >= 1 } == true)
        for column in board.metrics.indices { #expect(board.rows.contains { $0.cells[column]?.best == true }) }
    }
}
