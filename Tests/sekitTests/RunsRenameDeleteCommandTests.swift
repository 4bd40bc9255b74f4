import Foundation
import Testing

/// Issue 41: `sekit runs rename RUN NAME` and `sekit runs delete RUN` (refused while runs descend from
/// it unless `--with-descendants`, which lists them first; files on disk are never deleted).
@Suite(.serialized) struct RunsRenameDeleteCommandTests {
    @Test func renameThenDeleteWithDescendants() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.mixSplitCorpus(count: 4)
        let catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "4",
                                         "--seconds", "0.5", "--out", folder.path("catalogued"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let enhanced = try SEKitBinary.run(["enhance", "--method", "wiener", "--corpus", folder.path("catalogued"),
                                            "--out", folder.path("wiener"), "--catalog", catalog])
        #expect(enhanced.status == 0, "\(enhanced.stderr)")
        for (name, extra) in [("noisy", [String]()), ("wiener", ["--enhanced", folder.path("wiener")])] {
            let scored = try SEKitBinary.run(["score", "--corpus", folder.path("catalogued"), "--metrics", "snr", "--checkpoint", name,
                                              "--catalog", catalog] + extra)
            #expect(scored.status == 0, "\(scored.stderr)")
        }

        let renamed = try SEKitBinary.run(["runs", "rename", "noisy", "input", "--catalog", catalog])
        #expect(renamed.status == 0 && renamed.stdout.contains("-> input"), "\(renamed.stderr)")
        #expect(try SEKitBinary.run(["runs", "show", "input", "--catalog", catalog]).status == 0)
        #expect(try SEKitBinary.run(["runs", "show", "noisy", "--catalog", catalog]).status == 2, "the old name names nothing")
        let empty = try SEKitBinary.run(["runs", "rename", "input", " ", "--catalog", catalog])
        #expect(empty.status == 64 && empty.stderr.contains("empty"), "\(empty.stderr)")

        // The enhance run has a score run below it.
        let enhanceRun = try folder.sqlite(catalog, "SELECT id FROM runs WHERE kind = 'enhance'")
        let refused = try SEKitBinary.run(["runs", "delete", enhanceRun, "--catalog", catalog])
        #expect(refused.status == 64 && refused.stderr.contains("1 descendant run(s)") && refused.stderr.contains("score"),
                "\(refused.stderr)")
        let dry = try SEKitBinary.run(["runs", "delete", enhanceRun, "--with-descendants", "--dry-run", "--catalog", catalog])
        #expect(dry.status == 0 && dry.stdout.contains("would remove 2 run(s)"), "\(dry.stdout)\(dry.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs") == "4")
        let removed = try SEKitBinary.run(["runs", "delete", enhanceRun, "--with-descendants", "--catalog", catalog])
        #expect(removed.status == 0 && removed.stdout.contains("removed 2 run(s)"), "\(removed.stdout)\(removed.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT kind FROM runs ORDER BY kind") == "mix\nscore")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_scores WHERE run_id NOT IN (SELECT id FROM runs)") == "0")
        #expect(FileManager.default.fileExists(atPath: folder.path("wiener")), "files on disk stay")

        // The mix with everything below it: its clips, the sources it recorded and the score of its clips.
        let all = try SEKitBinary.run(["runs", "delete", "catalogued", "--with-descendants", "--catalog", catalog])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM clips) "
                                  + "+ (SELECT count(*) FROM clip_scores) + (SELECT count(*) FROM params)") == "0")
        let check = try SEKitBinary.run(["catalog", "check", "--catalog", catalog])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("catalogued/manifest.jsonl")))
    }

    /// Issue 41: `catalog import --corpus mine` beside `mix --out corpora/mine` made
    /// `runs leaderboard --corpus mine` refuse ("names 2 runs"): a corpus name is looked for among mixes.
    @Test func aCorpusNameIsLookedForAmongMixes() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for i in 0..<3 { try folder.writeWAV("speech/u\(i).wav", frames: 16_000, seed: i) }
        for i in 0..<2 { try folder.writeWAV("noise/n\(i).wav", frames: 24_000, seed: 9 + i) }
        let catalog = folder.path("catalog.sqlite")
        let imported = try SEKitBinary.run(["catalog", "import", "--kind", "speech", "--corpus", "mine", folder.path("speech"),
                                            "--catalog", catalog])
        #expect(imported.status == 0, "\(imported.stderr)")
        let mixed = try SEKitBinary.run(["mix", "--speech", "corpus:mine", "--noise", folder.path("noise"), "--count", "4",
                                         "--seconds", "0.5", "--out", folder.path("corpora/mine"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE name = 'mine'") == "2")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("corpora/mine"), "--enhanced", folder.path("corpora/mine/clean"),
                                          "--metrics", "segsnr", "--checkpoint", "upper", "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
        let board = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "mine", "--catalog", catalog])
        #expect(board.status == 0 && board.stdout.contains("upper"), "\(board.stdout)\(board.stderr)")
    }
}
