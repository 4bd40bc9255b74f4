import Foundation
import Testing

/// `sekit score --from-run` prints a recorded run exactly as `sekit score` printed it: per-clip CSV
/// and JSON, with clips that failed, metric values that failed and noisy values that failed too.
@Suite struct ScoreFromRunTests {
    @Test(.enabled(if: MixCommandTests.sqliteAvailable, "needs /usr/bin/sqlite3"))
    func aRecordedRunWithFailuresPrintsAsScored() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for name in ["a", "b", "c"] {
            try folder.writeWAV("ref/\(name).wav", frames: 16_000, seed: name == "a" ? 1 : 2)
            try folder.writeWAV("noisy/\(name).wav", frames: 16_000, seed: 5)
            if name != "c" { try folder.writeWAV("enh/\(name).wav", frames: 16_000, seed: 7) }   // c: missing, the clip fails
        }
        // b: silent output and silent noisy input, so SI-SDR fails for both.
        for path in ["enh/b.wav", "noisy/b.wav"] {
            var data = try Data(contentsOf: folder.url.appendingPathComponent(path))
            data.replaceSubrange(44..<data.count, with: [UInt8](repeating: 0, count: data.count - 44))
            try data.write(to: folder.url.appendingPathComponent(path))
        }
        let catalog = folder.path("catalog.sqlite")
        let scored = try SEKitBinary.run(["score", "--reference", folder.path("ref"), "--enhanced", folder.path("enh"), "--noisy",
                                          folder.path("noisy"),
                                          "--metrics", "snr,sisdr,segsnr", "--format", "json", "--per-clip", folder.path("scored.csv"),
                                          "--allow-failures", "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
        #expect(scored.stdout.contains("noisy_metric_errors") && scored.stdout.contains("\"error\""),
                "the run should have both kinds of failure")
        let run = try CatalogCLIFolder.sqlite(catalog, "SELECT id FROM runs WHERE kind = 'score'")
        let printed = try SEKitBinary.run(["score", "--from-run", run, "--catalog", catalog, "--format", "json",
                                           "--per-clip", folder.path("printed.csv")])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout == scored.stdout)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("printed.csv")))
                    == (try Data(contentsOf: URL(fileURLWithPath: folder.path("scored.csv")))))

        let notScore = try SEKitBinary.run(["score", "--from-run", "nonexistent", "--catalog", catalog])
        #expect(notScore.status != 0 && notScore.stderr.contains("nonexistent"), "\(notScore.stderr)")
        let both = try SEKitBinary.run(["score", "--from-run", run, "--corpus", folder.path("x"), "--catalog", catalog])
        #expect(both.status == 64 && both.stderr.contains("--from-run"), "\(both.stderr)")
    }
}
