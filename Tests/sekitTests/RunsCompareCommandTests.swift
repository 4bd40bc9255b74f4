import Foundation
import Testing

/// `sekit runs diff`, `best`, `leaderboard`, `export` and `list --order-by` as a user runs them.
@Suite(.enabled(if: TestEnvironment.sqliteAvailable, "needs /usr/bin/sqlite3"))
struct RunsCompareCommandTests {
    /// A mix of 8 clips at 0 and 10 dB, scored as `noisy` (the noisy input) and as `half` (the
    /// noisy files at half amplitude: SNR and SI-SDR unchanged, a different run to compare).
    func scoredCorpus(_ folder: CatalogCLIFolder) throws -> String {
        try MixCommandTests().makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "8",
                                         "--seconds", "0.5", "--snr-db", "0,10", "--out", folder.path("out"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let noisy = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr,sisdr,segsnr", "--checkpoint", "noisy",
                                         "--catalog", catalog])
        #expect(noisy.status == 0, "\(noisy.stderr)")
        let copy = folder.url.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: folder.url.appendingPathComponent("out/noisy"), to: copy)
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--enhanced", copy.path, "--metrics", "snr,sisdr,segsnr",
                                          "--checkpoint", "copy", "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
        return catalog
    }

    @Test func diffPrintsEveryFormatAndIdenticalOutputsAreNotSignificant() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try scoredCorpus(folder)
        let table = try SEKitBinary.run(["runs", "diff", "noisy", "copy", "--catalog", catalog])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("score.enhanced") && table.stdout.contains("10000 resamples, seed 0"))
        let csv = try SEKitBinary.run(["runs", "diff", "noisy", "copy", "--catalog", catalog, "--format", "csv", "--subset", "all,snr=0"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "metric,subset,mean_a,mean_b,difference,ci_low,ci_high,test,method,statistic,p,p_holm,significant,n,n_a,n_b")
        #expect(lines.count == 1 + 3 * 2)
        // Identical scores: every difference is 0, the test cannot be made, nothing is significant.
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(cells[4] == "0" && cells[10] == "" && cells[12] == "0", "\(line)")
        }
        let json = try SEKitBinary.run(["runs", "diff", "noisy", "copy", "--catalog", catalog, "--format", "json", "--seed", "5"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["seed"] as? Int == 5 && object["paired"] as? Bool == true && (object["rows"] as? [Any])?.isEmpty == false)
        let markdown = try SEKitBinary.run(["runs", "diff", "noisy", "copy", "--catalog", catalog, "--format", "markdown"])
        #expect(markdown.stdout.contains("| metric | subset |") && markdown.stdout.hasPrefix("## Run comparison"))
        // Unknown metric and subset name themselves.
        let badMetric = try SEKitBinary.run(["runs", "diff", "noisy", "copy", "--catalog", catalog, "--metrics", "pesq"])
        #expect(badMetric.status != 0 && badMetric.stderr.contains("pesq") && badMetric.stderr.contains("snr,sisdr,segsnr"))
        let badSubset = try SEKitBinary.run(["runs", "diff", "noisy", "copy", "--catalog", catalog, "--subset", "snr=99"])
        #expect(badSubset.status != 0 && badSubset.stderr.contains("snr=99") && badSubset.stderr.contains("snr=10"))
    }

    /// Issue 41: a name scored twice resolves to its latest finished run in every command (it made
    /// `runs diff` and `report` refuse while `runs leaderboard` took the latest); the older by id.
    @Test func aNameScoredTwiceIsItsLatestRunEverywhere() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try scoredCorpus(folder)
        let first = try folder.sqlite(catalog, "SELECT id FROM runs WHERE name = 'noisy'")
        let again = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr", "--checkpoint", "noisy", "--catalog",
                                         catalog])
        #expect(again.status == 0)
        let latest = try folder.sqlite(catalog, "SELECT id FROM runs WHERE name = 'noisy' AND id <> '\(first)'")
        let diff = try SEKitBinary.run(["runs", "diff", "noisy", "copy", "--format", "json", "--catalog", catalog])
        #expect(diff.status == 0 && diff.stdout.contains(latest) && !diff.stdout.contains(first), "\(diff.stderr)")
        let show = try SEKitBinary.run(["runs", "show", "noisy", "--format", "csv", "--catalog", catalog])
        #expect(show.status == 0 && show.stdout.contains(latest), "\(show.stderr)")
        let older = try SEKitBinary.run(["runs", "show", first, "--format", "csv", "--catalog", catalog])
        #expect(older.status == 0 && older.stdout.contains(first))
    }

    @Test func leaderboardBestListAndExport() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try scoredCorpus(folder)
        let board = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "copy", "--catalog", catalog, "--format", "markdown"])
        #expect(board.status == 0, "\(board.stderr)")
        let rows = board.stdout.split(separator: "\n")
        #expect(rows.count == 4 && rows[2].hasPrefix("| noisy (input) |") && rows[3].hasPrefix("| copy |"))
        // A checkpoint scored twice: its latest run only, or with --all both, told apart by id.
        let again = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--enhanced", folder.path("copy"), "--metrics", "snr",
                                         "--checkpoint", "copy", "--catalog", catalog])
        #expect(again.status == 0)
        let latest = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "noisy", "--catalog", catalog, "--format", "csv"])
        #expect(latest.stdout.split(separator: "\n").count == 3)
        let all = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "noisy", "--catalog", catalog, "--format", "csv", "--all"])
        #expect(all.stdout.split(separator: "\n").filter { $0.hasPrefix("copy [") }.count == 2, "\(all.stdout)")
        let best = try SEKitBinary.run(["runs", "best", "--metric", "segsnr", "--catalog", catalog, "--format", "csv"])
        #expect(best.status == 0, "\(best.stderr)")
        #expect(best.stdout.split(separator: "\n").count == 3)
        let listed = try SEKitBinary.run(["runs", "list", "--kind", "score", "--order-by", "name desc", "--format", "csv", "--catalog",
                                          catalog])
        #expect(listed.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] } == ["noisy", "copy", "copy"])
        let bad = try SEKitBinary.run(["runs", "list", "--order-by", "name sideways", "--catalog", catalog])
        #expect(bad.status != 0 && bad.stderr.contains("asc or desc"))
        let export = try SEKitBinary.run(["runs", "export", "--per-clip", "--filter", "name = 'copy'", "--catalog", catalog])
        #expect(export.status == 0 && export.stdout.split(separator: "\n").count == 1 + 8 * 3 + 8)
        let table = try SEKitBinary.run(["runs", "export", "--format", "json", "--catalog", catalog])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(table.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 4 && objects.contains { $0["metrics.snr.mean"] is Double })
    }
}
