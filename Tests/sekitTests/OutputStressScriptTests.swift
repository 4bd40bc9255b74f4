import Foundation
import Testing

/// `scripts/stress/outputs.sh` with the test build's binary: every printing command on a full
/// device (an error and exit 1) and on a pipe its reader closed (a quiet exit), and an enhance
/// folder reused for another method (refused, files untouched; `--overwrite` replaces it).
@Suite(.serialized, .needsFixtures, .enabled(if: TestEnvironment.sqliteAvailable, "needs sqlite3"))
struct OutputStressScriptTests {
    @Test func outputFailuresAndFolderReuseAreHandled() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let result = try ScriptRunner.stress("outputs.sh", in: folder)
        #expect(result.status == 0, "outputs.sh failed:\n\(result.stdout)\n\(result.stderr.suffix(3000))")
        let figures = try #require(ScriptRunner.figures(result.stdout, after: "cases passed failed"), "no summary:\n\(result.stdout)")
        #expect(figures.count == 3 && figures[0] >= 38 && figures[2] == 0, "\(result.stdout)")
    }
}
