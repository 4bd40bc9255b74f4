import Foundation
import Testing

/// Issue 41's data loss, through the binary: `catalog merge` of a catalogue holding a listening test
/// (1 test, 25 stimuli, 5 raters, 125 ratings) exited 0 and the output held none of it; `listen show`
/// then said there was no test.
@Suite(.serialized, .needsFixtures)
struct CatalogMergeListeningTests {
    @Test func aMergedCatalogueKeepsItsListeningTest() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        let out = folder.path("t")
        let made = try SEKitBinary.run(["listen", "make", "--runs", "logmmse,oracle-irm", "--test", "mushra", "--clips", "5",
                                        "--out", out, "--catalog", catalog])
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/test.json")))
                                        as? [String: Any])
        var files: [String] = []
        for rater in 1...5 {
            let scores = ["logmmse": 40.0 + Double(rater), "oracle-irm": 80, "anchor35": 10, "anchor70": 30, "reference": 100]
            let data = try ListenImportErrorTests().results(manifest, rater: "r\(rater)", scores: scores)
            try data.write(to: folder.file("r\(rater).json"))
            files.append(folder.path("r\(rater).json"))
        }
        let imported = try SEKitBinary.run(["listen", "import", "--test", out] + files + ["--catalog", catalog])
        #expect(imported.status == 0, "\(imported.stderr)")
        let counts = "SELECT (SELECT count(*) FROM listening_tests) || ' ' || (SELECT count(*) FROM listening_stimuli) || ' ' || "
            + "(SELECT count(*) FROM listening_raters) || ' ' || (SELECT count(*) FROM listening_ratings)"
        #expect(try folder.sqlite(catalog, counts) == "1 25 5 125")
        let shown = try SEKitBinary.run(["listen", "show", "--format", "csv", "--catalog", catalog])
        #expect(shown.status == 0, "\(shown.stderr)")

        let merged = folder.path("merged.sqlite")
        let merge = try SEKitBinary.run(["catalog", "merge", merged, catalog])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try folder.sqlite(merged, counts) == "1 25 5 125")
        let shownMerged = try SEKitBinary.run(["listen", "show", "--format", "csv", "--catalog", merged])
        #expect(shownMerged.status == 0 && shownMerged.stdout == shown.stdout, "\(shownMerged.stderr)")
        let check = try SEKitBinary.run(["catalog", "check", "--dry-run", "--catalog", merged])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let ratings = try SEKitBinary.run(["runs", "export", "--table", "listening_ratings", "--catalog", merged])
        #expect(ratings.status == 0 && ratings.stdout.split(separator: "\n").count == 126, "\(ratings.stderr)")
        let refused = try SEKitBinary.run(["runs", "export", "--table", "listening_ratings", "--filter", "kind = 'score'",
                                           "--catalog", merged])
        #expect(refused.status == 64 && refused.stderr.contains("not tied to runs"), "\(refused.stderr)")
    }
}
