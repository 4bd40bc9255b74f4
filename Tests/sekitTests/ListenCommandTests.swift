import Foundation
import Testing

/// `sekit listen make|import|show|correlate` end to end: the test page opened in headless Chromium
/// with the network off, three scripted raters with known answers (scripts/test-support/listening_rater.py:
/// every sample played, progress resumed after a reload, results downloaded), then the ratings
/// imported, screened and summarised, and correlated with the runs' metrics.
@Suite(
    .serialized,
    .needsFixtures, .enabled(if: Chromium.required, "needs chromium (scripts/setup.sh)"))
struct ListenCommandTests {
    static let rater = GoldenCorpus.projectRoot.appendingPathComponent("scripts/test-support/listening_rater.py")

    /// One scripted rater through the page; returns the rater script's report.
    func rate(_ page: String, downloads: String, rater: String, answers: [String: Any]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let json = String(decoding: try JSONSerialization.data(withJSONObject: answers, options: [.sortedKeys]), as: UTF8.self)
        process.arguments = ["python3", Self.rater.path, page, downloads, "--rater", rater, "--answers", json]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "listening_rater failed: \(String(decoding: errors, as: UTF8.self))")
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((report["console_errors"] as? [Any])?.isEmpty == true, "console errors \(report["console_errors"]!)")
        #expect((report["exceptions"] as? [Any])?.isEmpty == true, "exceptions \(report["exceptions"]!)")
        #expect((report["external_requests"] as? [Any])?.isEmpty == true, "requests \(report["external_requests"]!)")
        #expect(report["download_state"] as? String == "completed")
        #expect(
            report["resumed"] as? String == "Trial 3 of \((report["trials"] as? [Any])?.count ?? 0)",
            "progress after a reload: \(report["resumed"]!)")
        for played in try #require(report["played"] as? [[String: Any]]) {
            // Rating is possible only once the sample played; every sample loaded from beside the page, offline.
            #expect(
                played["disabledBefore"] as? Int == played["controls"] as? Int
                    && played["enabledAfter"] as? Int == played["controls"] as? Int,
                "\(played)")
            #expect(played["failed"] as? Int == 0 && (played["loaded"] as? Int ?? 0) > 0, "\(played)")
        }
        return report
    }

    func json(_ result: SEKitBinary.Result) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func mushraRatedInChromiumThenImportedShownAndCorrelated() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        let out = folder.path("mushra-test")
        let made = try SEKitBinary.run([
            "listen", "make", "--runs", "logmmse,oracle-irm", "--test", "mushra", "--clips", "3", "--out", out,
            "--seed", "5", "--catalog", catalog,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/test.json"))) as? [String: Any])
        let trials = try #require(manifest["trials"] as? [[String: Any]])
        #expect(trials.count == 3)
        // Stratified by input SNR: the 8 clips are at −5, 0 and 5 dB, so 3 clips take one of each.
        #expect(Set(trials.compactMap { $0["snrDB"] as? Double }) == [-5, 0, 5])
        #expect(
            trials.allSatisfy {
                ($0["stimuli"] as? [[String: Any]])?.compactMap { $0["condition"] as? String }
                    == ["logmmse", "oracle-irm", "anchor35", "anchor70", "reference"]
            })
        let config = try String(contentsOfFile: out + "/webmushra/config.yaml", encoding: .utf8)
        #expect(config.components(separatedBy: "- type: mushra").count == 4 && config.contains("'anchor35': 'audio/"))
        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        for external in ["src=\"http", "href=\"http", "<link ", "<script src", "url(http", "@import"] {
            #expect(!page.contains(external), "the page refers to something outside it: \(external)")
        }
        // Three raters; r3 scores the hidden reference 60 everywhere, so post-screening excludes them.
        let answers: [(String, [String: Int])] = [
            ("r1", ["logmmse": 40, "oracle-irm": 80, "anchor35": 10, "anchor70": 30, "reference": 100]),
            ("r2", ["logmmse": 50, "oracle-irm": 70, "anchor35": 20, "anchor70": 40, "reference": 95]),
            ("r3", ["logmmse": 90, "oracle-irm": 10, "anchor35": 20, "anchor70": 40, "reference": 60]),
        ]
        let downloads = folder.path("downloads")
        for (rater, scores) in answers {
            let report = try rate(out + "/index.html", downloads: downloads, rater: rater, answers: ["scores": scores])
            #expect((report["trials"] as? [Any])?.count == 3)
        }
        let files = answers.map { downloads + "/results-\($0.0).json" }
        let imported = try SEKitBinary.run(["listen", "import", "--test", out] + files + ["--catalog", catalog])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.contains("3 raters imported, 2 kept") && imported.stdout.contains("excluded r3: mushra-reference"),
            "\(imported.stdout)")

        let shown = try json(try SEKitBinary.run(["listen", "show", "--format", "json", "--catalog", catalog]))
        let rows = try #require(shown["rows"] as? [[String: Any]])
        func row(_ condition: String, _ subset: String = "all") -> [String: Any]? {
            rows.first { $0["condition"] as? String == condition && $0["subset"] as? String == subset }
        }
        // r1 and r2 kept: each condition's mean over 2 raters × 3 clips.
        for (condition, mean) in [("logmmse", 45.0), ("oracle-irm", 75.0), ("anchor35", 15.0), ("anchor70", 35.0), ("reference", 97.5)] {
            #expect(row(condition)?["mean"] as? Double == mean, "\(condition): \(String(describing: row(condition)))")
            #expect(row(condition)?["n"] as? Int == 6)
        }
        // Student t: 45 ± t(0.975, 5)·s/√6 with s = √30 (values 40, 40, 40, 50, 50, 50).
        let half = 2.5705818366147395 * 30.0.squareRoot() / 6.0.squareRoot()
        #expect(abs((row("logmmse")?["ci95Low"] as? Double ?? 0) - (45 - half)) < 1e-6)
        #expect(row("logmmse", "snr=0")?["n"] as? Int == 2)
        let raters = try #require(shown["raters"] as? [[String: Any]])
        #expect(raters.map { $0["excluded"] as? Bool } == [false, false, true])
        let comparison = try #require((shown["comparisons"] as? [[String: Any]])?.first)
        #expect(
            comparison["a"] as? String == "logmmse" && comparison["b"] as? String == "oracle-irm"
                && comparison["difference"] as? Double == 30)

        let table = try SEKitBinary.run(["listen", "show", "mushra-test", "--catalog", catalog])
        #expect(table.status == 0 && table.stdout.contains("r3: excluded, mushra-reference"), "\(table.stdout)")

        let correlated = try json(try SEKitBinary.run(["listen", "correlate", "--format", "json", "--catalog", catalog]))
        let points = try #require((correlated["clipPoints"] as? [String: Any])?["stoi"] as? [[String: Any]])
        #expect(points.count == 6)
        // Listeners: the kept raters' mean per stimulus; metric: the run's stoi of the clip in the catalogue.
        for point in points {
            let condition = point["condition"] as! String
            let clip = point["clip"] as! String
            #expect(point["listeners"] as? Double == (condition == "logmmse" ? 45 : 75))
            let stored = try folder.sqlite(
                catalog,
                """
                SELECT s.value FROM clip_scores s JOIN runs r ON r.id = s.run_id
                WHERE r.name = '\(condition)' AND s.clip_id = '\(clip)' AND s.metric = 'stoi'
                """)
            #expect(abs(Double(stored)! - (point["metric"] as! Double)) < 1e-12)
        }
        let stoi = try #require(
            (correlated["rows"] as? [[String: Any]])?.first { $0["metric"] as? String == "stoi" && $0["level"] as? String == "clip" })
        let x = points.map { $0["metric"] as! Double }
        let y = points.map { $0["listeners"] as! Double }
        let meanX = x.reduce(0, +) / 6
        let meanY = y.reduce(0, +) / 6
        let covariance = zip(x, y).map { ($0 - meanX) * ($1 - meanY) }.reduce(0, +)
        let pearson =
            covariance
            / (x.map { ($0 - meanX) * ($0 - meanX) }.reduce(0, +) * y.map { ($0 - meanY) * ($0 - meanY) }.reduce(0, +)).squareRoot()
        #expect(abs(((stoi["pearson"] as? [String: Any])?["r"] as? Double ?? 0) - pearson) < 1e-9)
        // P.1401's epsilon: each stimulus has the votes 40, 50 (or 80, 70): half-width t(0.975, 1)·√50/√2 = 12.7062·5,
        // wider than any error of a 4-parameter fit to 6 points within 0…100 here, so rmse* is 0 (and ≤ the RMSE).
        for point in points { #expect(abs((point["ci95"] as? Double ?? 0) - 12.706204736174703 * 5) < 1e-9, "\(point)") }
        #expect(stoi["rmseStar"] as? Double == 0, "\(stoi)")
        #expect(stoi["rmseMapped"] as? Double != nil)

        // The HTML report of the two runs gains a "Listeners" section: the tables and a scatter plot per metric.
        let reportPage = folder.path("pages/report.html")
        try FileManager.default.createDirectory(atPath: folder.path("pages"), withIntermediateDirectories: true)
        let reported = try SEKitBinary.run(["report", "logmmse", "oracle-irm", "--out", reportPage, "--audio", "none",
                                            "--catalog", catalog])
        #expect(reported.status == 0, "\(reported.stderr)")
        let html = try String(contentsOfFile: reportPage, encoding: .utf8)
        #expect(html.contains("id=\"listeners\"") && html.contains("Listening test mushra-test (mushra)"))
        let checked = try ReportCommandTests().check(reportPage, name: "report-listeners")
        #expect((checked["console_errors"] as? [Any])?.isEmpty == true && (checked["exceptions"] as? [Any])?.isEmpty == true)
        let charts = try #require((checked["figures"] as? [String: Any])?["charts"] as? [[String: Any]])
        let scatters = charts.filter { ($0["label"] as? String)?.hasPrefix("Listeners (mushra) against") == true }
        #expect(scatters.count == 3, "one per metric: \(charts.compactMap { $0["label"] })")
        for chart in scatters { #expect((chart["width"] as? Double ?? 0) > 100 && (chart["height"] as? Double ?? 0) > 50, "\(chart)") }
    }

    @Test func acrRatedInChromiumScreensByGoldAndTrap() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        let out = folder.path("acr")
        let made = try SEKitBinary.run([
            "listen", "make", "--runs", "logmmse,oracle-irm", "--test", "acr", "--clips", "3", "--out", out, "--catalog", catalog,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let downloads = folder.path("downloads")
        // a3 ignores the trapping trial's instruction; a4 rates the gold (clean) trial 2.
        let raters: [(String, [String: Any])] = [
            ("a1", ["scores": ["logmmse": 2, "oracle-irm": 4, "reference": 5]]),
            ("a2", ["scores": ["logmmse": 3, "oracle-irm": 5, "reference": 4]]),
            ("a3", ["scores": ["logmmse": 1, "oracle-irm": 5, "reference": 5], "trap": 6]),
            ("a4", ["scores": ["logmmse": 5, "oracle-irm": 1, "reference": 2]]),
        ]
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/test.json"))) as? [String: Any])
        let trap = try #require((manifest["trials"] as? [[String: Any]])?.first { $0["role"] as? String == "trap" }?["expected"] as? Double)
        for (rater, var answers) in raters {
            // A trap answer that is never right: one off the expected score, within the scale.
            if answers["trap"] != nil { answers["trap"] = trap == 5 ? 4 : Int(trap) + 1 }
            let report = try rate(out + "/index.html", downloads: downloads, rater: rater, answers: answers)
            #expect((report["trials"] as? [Any])?.count == 8, "3 clips × 2 runs + gold + trap, one stimulus a screen")
        }
        let imported = try SEKitBinary.run(
            ["listen", "import", "--test", out] + raters.map { downloads + "/results-\($0.0).json" } + ["--catalog", catalog])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.contains("excluded a3: p808-trapping") && imported.stdout.contains("excluded a4: p808-gold"),
            "\(imported.stdout)")
        let shown = try json(try SEKitBinary.run(["listen", "show", "acr", "--format", "json", "--catalog", catalog]))
        let rows = try #require(shown["rows"] as? [[String: Any]])
        #expect(rows.first { $0["condition"] as? String == "logmmse" && $0["subset"] as? String == "all" }?["mean"] as? Double == 2.5)
        #expect(rows.first { $0["condition"] as? String == "oracle-irm" && $0["subset"] as? String == "all" }?["mean"] as? Double == 4.5)
        #expect(!rows.contains { $0["condition"] as? String == "reference" }, "gold trials are not a condition")
    }
}

extension ListenCommandTests {
    /// P.835's three scales and CCR's random order, through the page: one rater each.
    @Test func p835ScalesAndCcrOrderSurviveThePage() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        for (kind, scores) in [
            ("p835", ["logmmse": 2, "oracle-irm": 4, "reference": 5]), ("ccr", ["logmmse": -1, "oracle-irm": 2, "reference": 0]),
        ] {
            let out = folder.path(kind)
            let made = try SEKitBinary.run([
                "listen", "make", "--runs", "logmmse,oracle-irm", "--test", kind, "--clips", "3", "--out", out,
                "--catalog", catalog,
            ])
            #expect(made.status == 0, "\(made.stderr)")
            let report = try rate(
                out + "/index.html", downloads: folder.path("downloads-\(kind)"), rater: "x1", answers: ["scores": scores])
            #expect((report["trials"] as? [Any])?.count == 8)
            let imported = try SEKitBinary.run([
                "listen", "import", "--test", out, folder.path("downloads-\(kind)/results-x1.json"), "--catalog", catalog,
            ])
            #expect(imported.status == 0 && imported.stdout.contains("1 raters imported, 1 kept"), "\(imported.stdout) \(imported.stderr)")
            let shown = try json(try SEKitBinary.run(["listen", "show", kind, "--format", "json", "--catalog", catalog]))
            let rows = try #require(shown["rows"] as? [[String: Any]]).filter { $0["subset"] as? String == "all" }
            let scales = kind == "p835" ? ["sig", "bak", "ovrl"] : ["ccr"]
            #expect(rows.count == 2 * scales.count)
            for row in rows {
                // CCR: stored as the stimulus against the noisy input, whichever the page played first.
                #expect(row["mean"] as? Double == Double(scores[row["condition"] as! String]!), "\(kind): \(row)")
            }
        }
    }
}
