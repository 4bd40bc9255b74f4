import Foundation
import Testing

/// `scripts/stress/outputs.sh` with the test build's binary: every printing command on a full
/// device (an error and exit 1) and on a pipe its reader closed (a quiet exit), and an enhance
/// folder reused for another method (refused, files untouched; `--overwrite` replaces it).
@Suite(.serialized, .needsFixtures, .enabled(if: TestEnvironment.sqliteAvailable, "needs sqlite3"))
struct OutputStressScriptTests {
    @Test func outputFailuresAndFolderReuseAreHandled() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let result = try ScriptRunner.run("scripts/stress/outputs.sh", environment: [
            "SEKIT": SEKitBinary.url.path, "SEKIT_FIXTURES": GoldenCorpus.fixtures.path, "STRESS_DIR": folder.url.path,
        ])
        #expect(result.status == 0, "outputs.sh failed:\n\(result.stdout)\n\(result.stderr.suffix(3000))")
        let lines = result.stdout.split(separator: "\n")
        let header = try #require(lines.firstIndex { $0 == "cases passed failed" }, "no summary:\n\(result.stdout)")
        let figures = lines[header + 1].split(separator: " ").compactMap { Int($0) }
        #expect(figures.count == 3 && figures[0] >= 38 && figures[2] == 0, "\(result.stdout)")
    }
}
