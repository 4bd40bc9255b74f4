import Foundation
import Testing

extension ListenCommandTests {
    /// `listen make --spoken-trap` through the page: the trapping trial's words are only in its audio, so
    /// two raters answer it from what they hear (test.json's `spokenInstruction` for the trial's file, the
    /// answer key standing in for their ears; the page's question is the usual one) and a third, who stops
    /// listening before the end, answers it wrongly; `listen import` keeps the two and screens the third out
    /// with P.808's trapping rule.
    @Test func spokenTrapRatedInChromiumScreensTheRaterWhoDidNotListen() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        let out = folder.path("spoken")
        let made = try SEKitBinary.run([
            "listen", "make", "--runs", "logmmse", "--test", "acr", "--clips", "2", "--out", out, "--spoken-trap",
            "--catalog", catalog,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/test.json"))) as? [String: Any])
        let trap = try #require((manifest["trials"] as? [[String: Any]])?.first { $0["role"] as? String == "trap" })
        let expected = try #require(trap["expected"] as? Double)
        let words = try #require(trap["spokenInstruction"] as? String)
        let file = try #require((trap["stimuli"] as? [[String: Any]])?.first?["file"] as? String)
        #expect(trap["instruction"] == nil, "the page must not write the instruction: \(trap)")
        let heard = [file: words]
        let raters: [(String, [String: Any])] = [
            ("s1", ["scores": ["logmmse": 2, "reference": 5], "heard": heard]),
            ("s2", ["scores": ["logmmse": 4, "reference": 5], "heard": heard]),
            ("s3", ["scores": ["logmmse": 1, "reference": 5], "trap": expected == 5 ? 4 : Int(expected) + 1]),
        ]
        let downloads = folder.path("downloads")
        for (rater, answers) in raters {
            let report = try rate(out + "/index.html", downloads: downloads, rater: rater, answers: answers)
            #expect((report["trials"] as? [Any])?.count == 4, "2 clips × 1 run + gold + trap")
            let page = try #require(report["trials"] as? [[String: Any]])
            #expect(page.contains { $0["trial"] as? String == "trap" }, "\(page)")
        }
        let imported = try SEKitBinary.run(
            ["listen", "import", "--test", out] + raters.map { downloads + "/results-\($0.0).json" } + ["--catalog", catalog])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("excluded s3: p808-trapping") && !imported.stdout.contains("excluded s1")
                    && !imported.stdout.contains("excluded s2"), "\(imported.stdout)")
        let shown = try json(try SEKitBinary.run(["listen", "show", "spoken", "--format", "json", "--catalog", catalog]))
        let rows = try #require(shown["rows"] as? [[String: Any]])
        #expect(rows.first { $0["condition"] as? String == "logmmse" && $0["subset"] as? String == "all" }?["mean"] as? Double == 3,
                "s1 and s2 only: \(rows)")
    }
}
