import Foundation
import Testing

/// `scripts/stress/merge-kills.sh`, reduced to 3 kills of a merge folding 3 × 6,000 clips, run
/// with the test build's binary: `catalog merge` into an existing catalogue is killed with
/// SIGKILL (once right after its first input, so that a kill lands mid-fold), and no folded run is
/// left `finished` with part of its rows; `catalog check` finds the interrupted fold; the merge
/// run again equals an uninterrupted one.
@Suite(.serialized, .needsFixtures, .enabled(if: TestEnvironment.sqliteAvailable, "needs sqlite3"))
struct MergeKillScriptTests {
    @Test func killedMergesIntoAnExistingCatalogueLeaveNoFinishedPartialFold() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let result = try ScriptRunner.stress("merge-kills.sh", in: folder, environment: ["KILLS": "3", "CLIPS_PER_SHARD": "6000"])
        let printed = result.stdout
        #expect(result.status == 0, "merge-kills.sh failed:\n\(printed)\n\(result.stderr.suffix(3000))")
        // The summary row: kills, delivered, before-fold, mid-fold, after-fold, partial-finished, check-found, matched.
        let lines = printed.split(separator: "\n")
        let header = try #require(lines.firstIndex { $0.contains("partial-finished") }, "no summary:\n\(printed)")
        let figures = lines[header + 1].split(separator: " ").compactMap { Int($0) }
        try #require(figures.count == 8, "\(lines[header + 1])")
        #expect(figures[3] >= 1, "no kill landed mid-fold: \(lines[header + 1])")
        #expect(figures[5] == 0 && figures[7] == 3, "\(printed)")
    }
}
