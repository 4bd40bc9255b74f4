import Foundation
import Testing

/// `sekit score` with the metrics papers report (PESQ, CSIG/CBAK/COVL, DNSMOS) end to end: real
/// speech, the Python workers, the catalogue record, the comparison commands, and scoring without
/// a reference.
@Suite(.serialized, .needsFixtures, .enabled(if: PaperMetrics.pythonRequired, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct ScorePaperMetricsCommandTests {
    /// Mixes 6 clips of 3 s from the fixtures at 0 and 5 dB into `folder/corpus`.
    func corpus(_ folder: CatalogCLIFolder, catalog: String) throws -> String {
        let fixtures = GoldenCorpus.fixtures.path
        let mixed = try SEKitBinary.run(["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/running_tap.wav",
                                         "--count", "6", "--seconds", "3", "--snr-db", "0,5", "--seed", "3", "--out", folder.path("corpus"),
                                         "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        return folder.path("corpus")
    }

    @Test func paperMetricsAreScoredRecordedAndCompared() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let corpus = try corpus(folder, catalog: catalog)
        let enhanced = try SEKitBinary.run(["enhance", "--method", "oracle-irm", "--corpus", corpus, "--out", folder.path("irm"),
                                            "--catalog", catalog])
        #expect(enhanced.status == 0, "\(enhanced.stderr)")
        for (name, extra) in [("noisy", [String]()), ("irm", ["--enhanced", folder.path("irm")])] {
            let scored = try SEKitBinary.run(["score", "--corpus", corpus, "--metrics", "pesq_wb,composite,stoi", "--jobs", "2",
                                              "--checkpoint", name, "--format", "json", "--catalog", catalog] + extra)
            #expect(scored.status == 0, "\(name): \(scored.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(scored.stdout.utf8)) as? [String: Any])
            let clips = try #require(document["clips"] as? [[String: Any]])
            #expect(clips.count == 6)
            for clip in clips {
                let metrics = try #require(clip["metrics"] as? [String: Double])
                for metric in ["pesq_wb", "csig", "cbak", "covl", "stoi"] { #expect(metrics[metric] != nil,
                                                                                    "\(name) \(clip["clip_id"]!): no \(metric)") }
                if let pesq = metrics["pesq_wb"] { #expect(pesq >= 1 && pesq <= 4.65) }
            }
        }
        // The run records the backend: interpreter, package versions.
        let pesqVersion = try folder.sqlite(catalog, "SELECT value_text FROM params p JOIN runs r ON r.id = p.run_id "
                                            + "WHERE r.name = 'irm' AND r.kind = 'score' AND key = 'backend_pesq'")
        #expect(pesqVersion == "0.0.4")
        let python = try folder.sqlite(catalog, "SELECT value_text FROM params p JOIN runs r ON r.id = p.run_id "
                                       + "WHERE r.name = 'irm' AND r.kind = 'score' AND key = 'backend_python'")
        #expect(python.contains("python"), "\(python)")
        // The comparison commands know the new metrics from the registry.
        let diff = try SEKitBinary.run(["runs", "diff", "noisy", "irm", "--metrics", "pesq_wb,csig,covl", "--subset", "all", "--catalog",
                                        catalog])
        #expect(diff.status == 0, "\(diff.stderr)")
        for metric in ["pesq_wb", "csig", "covl"] { #expect(diff.stdout.contains(metric), "\(diff.stdout)") }
        let board = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "noisy", "--metrics", "pesq_wb,cbak", "--format", "csv",
                                         "--catalog", catalog])
        #expect(board.status == 0, "\(board.stderr)")
        let rows = board.stdout.split(separator: "\n")
        #expect(rows.first?.contains("pesq_wb") == true && rows.count == 3, "\(board.stdout)")
        print(diff.stdout)
    }

    @Test func realRecordingsAreScoredWithoutAReference() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let recordings = folder.url.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings.appendingPathComponent("day2"), withIntermediateDirectories: true)
        for (name, file) in [("a.wav", "speech/vctk_p287_001.wav"), ("day2/b.wav", "noisy/vctk_p287_002.wav")] {
            try FileManager.default.copyItem(at: GoldenCorpus.fixtures.appendingPathComponent(file),
                                             to: recordings.appendingPathComponent(name))
        }
        let scored = try SEKitBinary.run(["score", "--enhanced", recordings.path, "--metrics", "dnsmos", "--format", "csv", "--no-catalog"])
        #expect(scored.status == 0, "\(scored.stderr)")
        let lines = scored.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("clip_id,split,snr_db,dnsmos_sig,dnsmos_sig_noisy,dnsmos_sig_improvement,dnsmos_bak") == true,
                "\(scored.stdout)")
        #expect(lines.count == 3)
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            for index in [3, 6, 9, 12] { #expect(Double(cells[index]).map { $0 > 1 && $0 < 5 } == true, "\(line)") }
        }
        // An intrusive metric without a reference is a usage error naming it.
        let refused = try SEKitBinary.run(["score", "--enhanced", recordings.path, "--metrics", "dnsmos,stoi,pesq_wb", "--no-catalog"])
        #expect(refused.status != 0 && refused.status != 1)
        #expect(refused.stderr.contains("stoi, pesq_wb compare against a clean reference"), "\(refused.stderr)")
    }

    @Test func aMissingPythonEnvironmentStopsBeforeAnyClip() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let corpus = try corpus(folder, catalog: catalog)
        let missing = folder.path("no-venv/bin/python")
        let scored = try SEKitBinary.run(["score", "--corpus", corpus, "--metrics", "stoi,csig", "--catalog", catalog],
                                         environment: ["SEKIT_PYTHON": missing])
        #expect(scored.status != 0)
        #expect(scored.stderr.contains("csig needs the project's Python environment"), "\(scored.stderr)")
        #expect(scored.stderr.contains(missing) && scored.stderr.contains("scripts/python-env.sh"), "\(scored.stderr)")
        #expect(!scored.stderr.contains("score: 1/"), "no clip is scored: \(scored.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'score'") == "0")
    }

    @Test func otherRatesAreConvertedAndTheRunSaysSo() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let fixtures = GoldenCorpus.fixtures.path
        let mixed = try SEKitBinary.run(["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/exercise_bike.wav",
                                         "--count", "3", "--seconds", "3", "--snr-db", "5", "--sample-rate", "22050", "--seed", "4",
                                         "--out", folder.path("corpus"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--metrics", "pesq_wb,pesq_nb", "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
        let params = try folder.sqlite(catalog, "SELECT key || '=' || value_text FROM params p JOIN runs r ON r.id = p.run_id "
                                       + "WHERE r.kind = 'score' AND key LIKE 'resampled%' ORDER BY key")
        #expect(params == "resampled_clips=3\nresampled_from_hz=22050", "\(params)")
    }
}

enum PaperMetrics {
    /// Whether the tests that need the Python environment run: when `SEKIT_PYTHON` is set, and
    /// always under CI (where a missing environment fails them).
    static var pythonRequired: Bool {
        ProcessInfo.processInfo.environment["SEKIT_PYTHON"] != nil || TestEnvironment.isCI
    }
}
