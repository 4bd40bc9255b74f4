import Foundation
import Testing

/// `scripts/stress/hostile-inputs.sh` with the test build's binary: the round-3 audit's cases a
/// script can repeat (issue 40), each a crash, a silently wrong result or an unclear message when it fails.
@Suite(.serialized, .needsFixtures, .enabled(if: TestEnvironment.sqliteAvailable, "needs sqlite3"))
struct HostileInputsScriptTests {
    @Test func everyCaseIsRefusedOrRightWithoutACrash() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let result = try ScriptRunner.stress("hostile-inputs.sh", in: folder)
        #expect(result.status == 0, "hostile-inputs.sh failed:\n\(result.stdout)\n\(result.stderr.suffix(3000))")
        let cases = try #require(ScriptRunner.figures(result.stdout, after: "cases passed failed"), "no summary:\n\(result.stdout)")
        #expect(cases.count == 3 && cases[0] >= 23 && cases[2] == 0, "\(result.stdout)")
        #expect(ScriptRunner.figures(result.stdout, after: "crashes silently_wrong unclear") == [0, 0, 0], "\(result.stdout)")
    }
}
