import Foundation
import Testing

/// `sekit score` records a `score` run: per-clip scores joined to the mix's clips, aggregates, failures.
@Suite struct ScoreCatalogTests {
    @Test(.enabled(if: MixCommandTests.sqliteAvailable, "needs /usr/bin/sqlite3")) func scoreRunJoinsMixClipsAndRecordsFailures() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try MixCommandTests().makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "8",
                                         "--seconds", "0.5", "--snr-db", "0,10", "--out", folder.path("out"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        // An "enhanced" folder missing one clip: that clip is an error, recorded, and fails the command.
        let enhanced = folder.url.appendingPathComponent("enhanced")
        try FileManager.default.createDirectory(at: enhanced, withIntermediateDirectories: true)
        let noisy = try FileManager.default.contentsOfDirectory(atPath: folder.path("out/noisy")).filter { $0.hasSuffix(".wav") }.sorted()
        for name in noisy.dropFirst() {
            try FileManager.default.copyItem(atPath: folder.path("out/noisy/\(name)"), toPath: enhanced.appendingPathComponent(name).path)
        }
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--enhanced", enhanced.path, "--metrics", "snr,sisdr",
                                          "--checkpoint", "copy-of-noisy", "--catalog", catalog, "--jobs", "2"])
        #expect(scored.status == 1)
        #expect(try folder.sqlite(catalog, "SELECT name || ' ' || status FROM runs WHERE kind = 'score'") == "copy-of-noisy finished")
        #expect(try folder.sqlite(catalog,
                "SELECT count(*) FROM runs r JOIN runs m ON m.id = r.parent_id WHERE r.kind = 'score' AND m.kind = 'mix'") == "1")
        // Every score row names a catalogued clip; the failed clip has rows with its reason.
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_scores") == "16")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_scores s JOIN clips c ON c.id = s.clip_id") == "16")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_scores WHERE error IS NOT NULL AND value IS NULL") == "2")
        // The copy of the noisy input scores exactly as the noisy input: improvement 0, over 7 clips.
        #expect(try folder.sqlite(catalog,
                                  "SELECT n || ' ' || mean FROM run_metrics WHERE metric = 'snr_improvement' AND subset = ''") == "7 0.0")
        #expect(try folder.sqlite(catalog, "SELECT group_concat(subset) FROM "
                                  + "(SELECT subset FROM run_metrics WHERE metric = 'snr' ORDER BY subset)") == ",snr=0,snr=10")
        let snr0 = try folder.sqlite(catalog, "SELECT round(mean, 2) FROM run_metrics WHERE metric = 'snr' AND subset = 'snr=0'")
        #expect(snr0 == "0.0" || snr0 == "-0.0")
        // The filter language sees the aggregates and parameters.
        let listed = try SEKitBinary.run(["runs", "list", "--catalog", catalog, "--format", "csv",
                                          "--filter", "kind = 'score' and metrics.sisdr.n = 7 and params.checkpoint like 'copy%'"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        // Its clips column counts the clips it scored (8, the failed one included), not clips it made.
        #expect(lines.last.map { $0.split(separator: ",")[6] } == "8")
    }
}
