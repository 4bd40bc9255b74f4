import Foundation
import SEKitTestSupport
import Testing

/// Issue 41: a corpus is a record of the catalogue, known by the hash of its `mix.json` and manifest;
/// a score run records which corpus it scored and what of it (typed columns of `score_targets`).
@Suite(.serialized) struct CorpusRecordCommandTests {
    /// Mixes a four-clip corpus into `catalog.sqlite` at `corpus` (beside the uncatalogued `corpus/` it
    /// mixes first); returns the catalogue's path.
    private func mixed(_ folder: CatalogCLIFolder, corpus: String = "catalogued") throws -> String {
        try folder.mixSplitCorpus(count: 4)
        let catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "4",
                                         "--seconds", "0.5", "--out", folder.path(corpus), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        return catalog
    }

    @Test func aCopyWithoutItsRecordsIsTheSameCorpusAndPairsClipByClip() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try mixed(folder)
        // The mix recorded its corpus by identity, made by its mix run.
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM corpora") == "1")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM corpus_mix_runs JOIN runs ON runs.id = mix_run_id") == "1")
        // A copy without `.sekit/` (hidden files left behind), in another folder.
        let copy = folder.url.appendingPathComponent("elsewhere/copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for item in try FileManager.default.contentsOfDirectory(atPath: folder.path("catalogued")) where !item.hasPrefix(".") {
            try FileManager.default.copyItem(at: folder.url.appendingPathComponent("catalogued/\(item)"),
                                             to: copy.appendingPathComponent(item))
        }
        let noisy = try SEKitBinary.run(["score", "--corpus", folder.path("catalogued"), "--metrics", "snr", "--checkpoint", "noisy",
                                         "--catalog", catalog])
        #expect(noisy.status == 0, "\(noisy.stderr)")
        // The copy's noisy inputs scored as a system's outputs: finite values, equal to the noisy row's.
        let same = try SEKitBinary.run(["score", "--corpus", copy.path, "--enhanced", copy.appendingPathComponent("noisy").path,
                                        "--metrics", "snr", "--checkpoint", "same", "--catalog", catalog])
        #expect(same.status == 0, "\(same.stderr)")
        // One corpus, last seen in the copy; both runs scored it, typed.
        #expect(try folder.sqlite(catalog, "SELECT count(*) || ' ' || path FROM corpora") == "1 \(copy.standardizedFileURL.path)")
        #expect(try folder.sqlite(catalog, """
            SELECT group_concat(r.name || ':' || t.scored || ':' || (t.corpus = c.identity) || ':' || (t.enhanced_folder IS NULL), ' ')
            FROM (SELECT * FROM runs ORDER BY started_at) r JOIN score_targets t ON t.run_id = r.id, corpora c
            """) == "noisy:noisy:1:1 same:enhanced:1:0")
        // The copy's clips are the corpus's clips: the scores join them, and the runs pair.
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_scores s JOIN clips c ON c.id = s.clip_id") == "8")
        let board = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "catalogued", "--catalog", catalog])
        #expect(board.status == 0 && board.stdout.contains("same") && board.stdout.contains("noisy"), "\(board.stdout)\(board.stderr)")
        let diff = try SEKitBinary.run(["runs", "diff", "noisy", "same", "--subset", "all", "--format", "csv", "--catalog", catalog])
        #expect(diff.status == 0, "\(diff.stderr)")
        let row = diff.stdout.split(separator: "\n").first { $0.hasPrefix("snr,all,") }.map(String.init) ?? ""
        #expect(row.split(separator: ",").contains("4") && row.contains(",0,"), "paired on the 4 clips, no difference: \(diff.stdout)")
    }

    @Test func aCorpusWhoseMixJSONWasEditedIsRefusedWithNothingWritten() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try mixed(folder)
        let spec = folder.url.appendingPathComponent("catalogued/mix.json")
        var text = try String(contentsOf: spec, encoding: .utf8)
        text = text.replacingOccurrences(of: "{", with: "{\"note\": \"edited by hand\", ", options: [], range: text.range(of: "{"))
        try text.write(to: spec, atomically: true, encoding: .utf8)
        let runs = try folder.sqlite(catalog, "SELECT count(*) FROM runs")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("catalogued"), "--metrics", "snr", "--checkpoint", "noisy",
                                          "--catalog", catalog])
        #expect(scored.status != 0 && scored.status < 128, "\(scored.stderr)")
        #expect(scored.stderr.contains(spec.path) && scored.stderr.contains("changed since mix run"), "\(scored.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs") == runs, "nothing recorded")
    }

    @Test func scoreTargetsSayWhatWasScored() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try mixed(folder)
        let enhanced = try SEKitBinary.run(["enhance", "--method", "wiener", "--corpus", folder.path("catalogued"),
                                            "--out", folder.path("wiener"), "--catalog", catalog])
        #expect(enhanced.status == 0, "\(enhanced.stderr)")
        let byCorpus = try SEKitBinary.run(["score", "--corpus", folder.path("catalogued"), "--enhanced", folder.path("wiener"),
                                            "--metrics", "snr", "--checkpoint", "wiener", "--catalog", catalog])
        #expect(byCorpus.status == 0, "\(byCorpus.stderr)")
        // Outputs of the corpus's enhance run scored against its clean folder by name: on the corpus.
        let byFolders = try SEKitBinary.run(["score", "--reference", folder.path("catalogued/clean"), "--enhanced", folder.path("wiener"),
                                             "--metrics", "snr", "--checkpoint", "folders", "--catalog", catalog])
        #expect(byFolders.status == 0, "\(byFolders.stderr)")
        // Files no run wrote, against a folder of references: that folder is the test set.
        let reference = folder.url.appendingPathComponent("catalogued/clean").standardizedFileURL.path
        let plain = try SEKitBinary.run(["score", "--reference", reference, "--enhanced", folder.path("catalogued/noisy"),
                                         "--metrics", "snr", "--checkpoint", "plain", "--catalog", catalog])
        #expect(plain.status == 0, "\(plain.stderr)")
        let rows = try folder.sqlite(catalog, """
            SELECT group_concat(r.name || ':' || (t.corpus IS NOT NULL) || ':' || coalesce(t.folder = '\(reference)', 0)
                || ':' || t.scored || ':' || coalesce((SELECT kind FROM runs WHERE id = t.enhance_run_id), '-'), ' ')
            FROM (SELECT * FROM runs ORDER BY started_at) r JOIN score_targets t ON t.run_id = r.id
            """)
        #expect(rows == "wiener:1:0:enhanced:enhance folders:1:0:enhanced:enhance plain:0:1:enhanced:-", "\(rows)")
        let board = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "catalogued", "--catalog", catalog])
        #expect(board.status == 0 && board.stdout.contains("folders") && board.stdout.contains("wiener") && !board.stdout.contains("plain"),
                "\(board.stdout)\(board.stderr)")
        // A leaderboard of the reference folder holds the run that scored it only.
        let byReference = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "plain", "--catalog", catalog])
        #expect(byReference.status == 0 && byReference.stdout.contains("plain") && !byReference.stdout.contains("wiener"),
                "\(byReference.stdout)\(byReference.stderr)")
    }
}
