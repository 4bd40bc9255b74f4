import Foundation
import Testing

/// `scripts/demo.sh --train`, reduced to 16 clips and run with the test build's binary: it finishes,
/// leaves what it says it leaves (the plain demo's outputs, and the model loop's: three CRNN epochs
/// trained in the training environment, each enhanced and scored, the board grouped by epoch), and
/// its report opens in Chromium without errors.
@Suite(.serialized, .enabled(if: Chromium.required && PaperMetrics.pythonRequired, "needs chromium (scripts/setup.sh) and SEKIT_PYTHON"))
struct DemoScriptTests {
    @Test func theDemoRunsAndItsReportLoads() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let out = folder.path("demo-out")
        // As on a fresh machine: no SEKIT_PYTHON; the demo sets the project's Python environment up
        // itself (here scripts/python-env.sh finds it, SEKIT_VENV, made by scripts/test.sh) and finds
        // the training environment (scripts/python-env.sh --train, cached per machine) ready.
        let environment = ProcessInfo.processInfo.environment
        let python = try #require(environment["SEKIT_PROJECT_PYTHON"] ?? environment["SEKIT_PYTHON"],
                                  "SEKIT_PROJECT_PYTHON is not set (run scripts/test.sh)")
        let venv = URL(fileURLWithPath: python).deletingLastPathComponent().deletingLastPathComponent().path
        let result = try ScriptRunner.run("scripts/demo.sh", arguments: ["--train"], environment: [
            "SEKIT_BIN": SEKitBinary.url.path, "SEKIT_DEMO_OUT": out, "SEKIT_DEMO_CLIPS": "16", "SEKIT_PYTHON": "", "SEKIT_VENV": venv,
            "SEKIT_TRAIN_PYTHON": "",
        ])
        let printed = result.stdout, said = result.stderr
        try #require(result.status == 0, "demo failed:\n\(said.suffix(3000))")
        #expect(printed.contains("| checkpoint |") && printed.contains("oracle-psm"), "the leaderboard")
        #expect(said.contains("== PESQ and CSIG/CBAK/COVL included"), "\(said.suffix(2000))")
        #expect(printed.contains("pesq_wb") && printed.contains("covl"), "the first leaderboard has PESQ and the composite measures")
        #expect(said.contains("== demo: done in ") && said.contains("Where everything is:"), "\(said.suffix(2000))")
        // Issue 39: the closing hints work when pasted (they once said `sekit runs list`, which found no catalogue).
        let hints = said.components(separatedBy: "To look around in it, paste:\n").last?.split(separator: "\n")
            .filter { $0.hasPrefix("    ") }.map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        #expect(hints.first?.hasPrefix("export SEKIT_CATALOG=") == true && hints.count == 4, "\(hints)")
        let pasted = try SEKitBinary.run(["-c", hints.joined(separator: " && ")], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(pasted.status == 0 && pasted.stdout.contains("oracle-psm"), "\(pasted.stdout.prefix(1000))\(pasted.stderr)")
        // Issue 40 item 3: the report compares the best real method with the noisy input; oracle masks (enhance
        // oracle-* and the feature file's own mask resynthesised) are upper bounds, never the best.
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.contains("The best method: ") && !html.contains("The best method: oracle"), "the report's comparison")
        #expect(html.contains("oracle-irm-synth (oracle: upper bound)"))
        let expected = ["corpus/manifest.jsonl", "features.h5", "report.html", "scores/noisy.csv", "scores/logmmse.csv",
                        "scores/oracle-irm.csv", "enhanced/specsub", "enhanced/oracle-psm", "oracle-irm", "catalog.sqlite"]
        for path in expected { #expect(FileManager.default.fileExists(atPath: out + "/" + path), "demo-out/\(path) missing") }
        // --train: the checkpoints, their outputs and scores, the board by epoch, the lineage.
        for epoch in 1...3 {
            for path in ["crnn/epoch-\(epoch).onnx", "crnn/epoch-\(epoch).stream.onnx", "enhanced/crnn/epoch-\(epoch)",
                         "scores/crnn-epoch\(epoch).csv"] {
                #expect(FileManager.default.fileExists(atPath: out + "/" + path), "demo-out/\(path) missing")
            }
        }
        #expect(said.contains("== --train: the reference CRNN, 3 epochs on CPU"), "\(said.suffix(2000))")
        #expect(printed.contains("(best)") && printed.contains("best checkpoint (the lowest mean rank): crnn-epoch"), "the board by epoch")
        #expect(printed.contains("best classical baseline: "), "\(printed.suffix(3000))")
        let catalog = out + "/catalog.sqlite"
        let chain = try folder.sqlite(catalog, """
            SELECT s.name || '<' || e.kind || '<' || t.kind || '<' || f.kind FROM runs s JOIN runs e ON e.id = s.parent_id
            JOIN runs t ON t.id = e.parent_id JOIN runs f ON f.id = t.parent_id WHERE s.kind = 'score' AND s.name = 'crnn-epoch3'
            """)
        #expect(chain == "crnn-epoch3<enhance<train<features", "score <- enhance <- train <- features: \(chain)")
        let figures = try FileManager.default.contentsOfDirectory(atPath: out + "/figures").filter { !$0.hasPrefix(".") }
        #expect(figures.count == 1 && figures[0].hasSuffix(".png"), "\(figures)")
        let report = try ReportCommandTests().check(out + "/report.html", name: "demo-report")
        #expect((report["console_errors"] as? [Any])?.isEmpty == true, "\(report["console_errors"]!)")
        #expect((report["exceptions"] as? [Any])?.isEmpty == true && (report["external_requests"] as? [Any])?.isEmpty == true)
        let shown = try #require(report["figures"] as? [String: Any])
        let images = try #require(shown["images"] as? [[String: Any]])
        #expect(!images.isEmpty && images.allSatisfy { ($0["naturalWidth"] as? Double ?? 0) > 0 })
        #expect(((shown["charts"] as? [Any])?.count ?? 0) > 0)
        let page = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(page.contains("Checkpoints by epoch") && page.contains("id=\"diff-baseline\""), "the report's checkpoint section")
    }
}
