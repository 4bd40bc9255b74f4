import Foundation
import Testing

/// `sekit report` pages rendered in headless Chromium with the network off
/// (scripts/test-support/chromium_check.py): no console errors or requests, charts and
/// spectrograms drawn with a size, the per-clip table sorts on a click and is there without
/// JavaScript, nothing wider than a phone's screen; a screenshot is kept in .build/test-artifacts.
@Suite(.serialized, .needsFixtures, .enabled(if: Chromium.required, "needs chromium (scripts/setup.sh)"))
struct ReportCommandTests {
    static let checker = GoldenCorpus.projectRoot.appendingPathComponent("scripts/test-support/chromium_check.py")

    /// A corpus of 8 clips at −5, 0 and 5 dB, enhanced with logmmse and the oracle IRM, each scored.
    func scoredCorpus(_ folder: CatalogCLIFolder) throws -> String {
        let catalog = folder.path("catalog.sqlite")
        let fixtures = GoldenCorpus.fixtures.path
        let mixed = try SEKitBinary.run(["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/running_tap.wav",
                                         "--count", "8", "--seconds", "3", "--snr-db=-5,0,5", "--seed", "3", "--out", folder.path("corpus"),
                                         "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        for method in ["logmmse", "oracle-irm"] {
            let enhanced = try SEKitBinary.run(["enhance", "--method", method, "--corpus", folder.path("corpus"), "--out",
                                                folder.path("enhanced/\(method)"),
                                                "--catalog", catalog])
            #expect(enhanced.status == 0, "\(enhanced.stderr)")
        }
        for (name, extra) in [("noisy", [String]()), ("logmmse", ["--enhanced", folder.path("enhanced/logmmse")]),
                              ("oracle-irm", ["--enhanced", folder.path("enhanced/oracle-irm")])] {
            let scored = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--checkpoint", name, "--metrics",
                                              "stoi,sisdr,segsnr",
                                              "--catalog", catalog] + extra)
            #expect(scored.status == 0, "\(scored.stderr)")
        }
        return catalog
    }

    /// The checker's findings for `page`; the screenshot goes to .build/test-artifacts/NAME.png.
    func check(_ page: String, name: String) throws -> [String: Any] {
        let artifacts = GoldenCorpus.projectRoot.appendingPathComponent(".build/test-artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("\(name).png").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.checker.path, page, screenshot]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "chromium_check failed: \(String(decoding: errors, as: UTF8.self))")
        #expect(FileManager.default.fileExists(atPath: screenshot))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// What every page must satisfy.
    func expectReadable(_ report: [String: Any], clips: Int, page: String) throws {
        #expect((report["console_errors"] as? [Any])?.isEmpty == true, "\(page): console errors \(report["console_errors"]!)")
        #expect((report["exceptions"] as? [Any])?.isEmpty == true, "\(page): exceptions \(report["exceptions"]!)")
        #expect((report["external_requests"] as? [Any])?.isEmpty == true, "\(page): requests \(report["external_requests"]!)")
        let figures = try #require(report["figures"] as? [String: Any])
        let images = try #require(figures["images"] as? [[String: Any]])
        #expect(images.count == 5, "\(page): \(images.count) spectrogram images")
        for image in images {
            #expect((image["naturalWidth"] as? Double ?? 0) > 0 && (image["width"] as? Double ?? 0) > 0
                        && (image["height"] as? Double ?? 0) > 0,
                    "\(page): image not drawn \(image)")
            #expect((image["alt"] as? String)?.hasPrefix("Spectrograms of clip") == true)
        }
        let charts = try #require(figures["charts"] as? [[String: Any]])
        #expect(charts.count == 3, "\(page): \(charts.count) charts")
        for chart in charts { #expect((chart["width"] as? Double ?? 0) > 100 && (chart["height"] as? Double ?? 0) > 50, "\(chart)") }
        let sort = try #require(report["sort"] as? [String: Any])
        #expect(sort["ascendingSorted"] as? Bool == true && sort["descendingSorted"] as? Bool == true, "\(page): sorting \(sort)")
        #expect(sort["before"] as? [Double] != sort["ascending"] as? [Double], "the clicked column was not already in order")
        let phone = try #require(report["phone"] as? [String: Any])
        #expect((phone["scrollWidth"] as? Double ?? 999) <= (phone["innerWidth"] as? Double ?? 0) + 1,
                "\(page): wider than a phone \(phone)")
        let plain = try #require(report["without_javascript"] as? [String: Any])
        let tables = try #require(plain["tables"] as? [[String: Any]])
        #expect(tables.first { $0["id"] as? String == "clips" }?["rows"] as? Double == Double(clips),
                "\(page): no clip table without JavaScript")
    }

    @Test func oneRunAndSeveralRunsRenderInChromium() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try scoredCorpus(folder)
        let one = folder.path("pages/one.html")
        try FileManager.default.createDirectory(atPath: folder.path("pages"), withIntermediateDirectories: true)
        let single = try SEKitBinary.run(["report", "logmmse", "--out", one, "--catalog", catalog])
        #expect(single.status == 0, "\(single.stderr)")
        let html = try String(contentsOfFile: one, encoding: .utf8)
        #expect(html.contains("data:audio/wav;base64,"))
        for external in ["src=\"http", "href=\"http", "<link ", "<script src", "url(http", "@import"] {
            #expect(!html.contains(external), "the page refers to something outside it: \(external)")
        }
        #expect(html.contains("<th scope=\"col\""))
        // The report is a run of its own, descending from the run it shows, with the page as its artifact.
        let recorded = try folder.sqlite(catalog, """
            SELECT p.name || ' ' || (SELECT count(*) FROM artifacts a WHERE a.run_id = r.id) \
            FROM runs r JOIN runs p ON p.id = r.parent_id WHERE r.kind = 'report'
            """)
        #expect(recorded == "logmmse 1", "\(recorded)")
        try expectReadable(try check(one, name: "report-one-run"), clips: 8, page: "one run")

        let several = folder.path("pages/several.html")
        let multi = try SEKitBinary.run(["report", "noisy", "logmmse", "oracle-irm", "--out", several, "--audio", "link", "--catalog",
                                         catalog])
        #expect(multi.status == 0, "\(multi.stderr)")
        let text = try String(contentsOfFile: several, encoding: .utf8)
        // Issue 40 item 3: with the noisy input's score run among the runs, the best real method is compared with it
        // (it was "The best two: oracle-irm against logmmse"), the oracle is an upper bound, and noisy is one row.
        #expect(text.contains("id=\"leaderboard\"") && text.contains("The best method: logmmse against the noisy input"),
                "leaderboard and diff")
        #expect(text.contains("oracle-irm (oracle: upper bound)") && !text.contains("The best two"))
        #expect(text.components(separatedBy: "<th scope=\"row\">noisy").count == 2, "one noisy row")
        // Linked audio points at the files, relative to the page.
        let link = try #require(text.range(of: "src=\"../corpus/")).upperBound
        let relative = "../corpus/" + text[link...].prefix { $0 != "\"" }
        #expect(FileManager.default.fileExists(atPath: folder.path("pages/" + relative)), "\(relative)")
        try expectReadable(try check(several, name: "report-several-runs"), clips: 8, page: "several runs")
    }

    @Test func badRequestsAreNamed() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try scoredCorpus(folder)
        let unknown = try SEKitBinary.run(["report", "no-such-run", "--out", folder.path("r.html"), "--catalog", catalog])
        #expect(unknown.status != 0 && unknown.stderr.contains("no-such-run"), "\(unknown.stderr)")
        let notScore = try SEKitBinary.run(["report", "corpus", "--out", folder.path("r.html"), "--catalog", catalog])
        #expect(notScore.status != 0, "\(notScore.stderr)")
        let badMetric = try SEKitBinary.run(["report", "logmmse", "--worst-metric", "pesq_wb", "--out", folder.path("r.html"), "--catalog",
                                             catalog])
        #expect(badMetric.status != 0 && badMetric.stderr.contains("worst-metric") && badMetric.stderr.contains("stoi"),
                "\(badMetric.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("r.html")))
    }
}

enum Chromium {
    /// Whether the report tests run: when Chromium is installed, and always under CI (where a
    /// missing browser fails them).
    static var required: Bool {
        ["/usr/bin/chromium",
         "/usr/bin/chromium-browser"].contains { FileManager.default.isExecutableFile(atPath: $0) } || TestEnvironment.isCI
    }
}
