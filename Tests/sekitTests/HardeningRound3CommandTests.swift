import Foundation
import Testing

/// Issue 40 (hardening, round 3): the cases a user met through the binary, each reproduced first.
@Suite(.serialized) struct HardeningRound3CommandTests {
    /// Item 11: `sekit noise --seconds 0.00001` wrote a 0-sample file and exited 0.
    @Test func noiseShorterThanOneSampleIsAUsageError() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let result = try SEKitBinary.run(["noise", "--seconds", "0.00001", folder.path("n.wav")])
        #expect(result.status == 64 && result.stderr.contains("--seconds") && result.stderr.contains("one sample"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("n.wav")))
        let one = try SEKitBinary.run(["noise", "--seconds", "0.0001", "--sample-rate", "16000", folder.path("one.wav")])
        #expect(one.status == 0, "\(one.stderr)")
    }

    /// Item 18: `runs show` said `clips: 0` for a score run that scored 40 clips.
    @Test func runsShowCountsTheClipsAScoreRunScored() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.mixSplitCorpus(count: 4)
        let catalog = folder.path("catalog.sqlite")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--metrics", "snr,segsnr", "--catalog", catalog,
                                          "--checkpoint", "noisy"])
        #expect(scored.status == 0, "\(scored.stderr)")
        let shown = try SEKitBinary.run(["runs", "show", "noisy", "--catalog", catalog])
        #expect(shown.status == 0 && shown.stdout.contains("clips scored: 4 (8 clip scores)"), "\(shown.stdout)")
        let csv = try SEKitBinary.run(["runs", "show", "noisy", "--format", "csv", "--catalog", catalog])
        #expect(csv.stdout.contains("scored_clips,4"), "\(csv.stdout)")
    }

    /// Item 18: the leaderboard's mean rank mixed runs scored on different metric sets without saying so.
    @Test func theLeaderboardSaysWhichRanksCoverFewerMetrics() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.mixSplitCorpus(count: 4)
        let catalog = folder.path("catalog.sqlite")
        func score(_ name: String, _ metrics: String) throws {
            let result = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--enhanced", folder.path("corpus/clean"),
                                              "--metrics", metrics, "--checkpoint", name, "--catalog", catalog])
            #expect(result.status == 0, "\(result.stderr)")
        }
        try score("full", "snr,segsnr")
        try score("partial", "snr")
        let board = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "full", "--catalog", catalog])
        #expect(board.status == 0, "\(board.stderr)")
        #expect(board.stderr.contains("note: partial: mean rank over 1 of the 2 metrics (not scored: segsnr)"), "\(board.stderr)")
        #expect(!board.stderr.contains("note: full"), "\(board.stderr)")
    }

    /// Item 17: DNSMOS refused decoded recordings that overshoot full scale; `--full-scale` offers a choice,
    /// recorded per clip and in the run.
    @Test(.enabled(if: PaperMetrics.pythonRequired, "needs SEKIT_PYTHON (run scripts/test.sh)"))
    func overshootingRecordingsAreScoredAsAskedAndSaySo() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let loud = (0..<32_000).map { Float(1.5 * sin(Double($0) * 2 * .pi * 220 / 16_000)) }
        try FileManager.default.createDirectory(at: folder.file("rec"), withIntermediateDirectories: true)
        try TestWAV.writeFloat32(loud, sampleRate: 16_000, to: folder.file("rec/loud.wav"))
        try TestWAV.writeFloat32(loud.map { $0 / 2 }, sampleRate: 16_000, to: folder.file("rec/fine.wav"))
        let refused = try SEKitBinary.run(["score", "--enhanced", folder.path("rec"), "--metrics", "dnsmos", "--format", "json",
                                           "--no-catalog"])
        #expect(refused.status != 0 && refused.stdout.contains("--full-scale clip or scale"), "\(refused.stdout)")
        let catalog = folder.path("catalog.sqlite")
        for policy in ["clip", "scale"] {
            let scored = try SEKitBinary.run(["score", "--enhanced", folder.path("rec"), "--metrics", "dnsmos", "--format", "json",
                                              "--full-scale", policy, "--checkpoint", policy, "--catalog", catalog])
            #expect(scored.status == 0, "\(scored.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(scored.stdout.utf8)) as? [String: Any])
            let clips = try #require(document["clips"] as? [[String: Any]])
            let byID = Dictionary(uniqueKeysWithValues: clips.map { ($0["clip_id"] as? String ?? "", $0) })
            let note = byID["loud.wav"]?["full_scale"] as? String ?? ""
            let expected = policy == "clip" ? note.hasPrefix("clipped ") && note.contains("beyond full scale")
                : note.hasPrefix("scaled by 0.6667")
            #expect(expected, "\(policy): \(note)")
            #expect(byID["fine.wav"]?["full_scale"] == nil && (byID["loud.wav"]?["metrics"] as? [String: Any])?["dnsmos_ovrl"] != nil)
            #expect(try folder.sqlite(catalog, "SELECT value_text FROM params p JOIN runs r ON r.id = p.run_id "
                                      + "WHERE r.name = '\(policy)' AND key = 'full_scale'") == policy)
        }
    }

    /// Item 16: `catalog check` reported a `--split-sources speech` corpus (noise and RIRs shared by every
    /// split, as documented) as split leaks and exited 1. It checks what the corpus promised.
    @Test func catalogCheckAcceptsNoiseSharedByASplitSourcesSpeechMix() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for i in 0..<4 { try folder.writeWAV("speech/u\(i).wav", frames: 16_000, seed: i) }
        for i in 0..<2 { try folder.writeWAV("noise/n\(i).wav", frames: 24_000, seed: 9 + i) }
        let catalog = folder.path("catalog.sqlite")
        for kind in ["speech", "noise"] {
            let imported = try SEKitBinary.run(["catalog", "import", "--kind", kind, "--corpus", kind, folder.path(kind),
                                                "--catalog", catalog])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        func mix(_ out: String, _ extra: [String]) throws {
            let mixed = try SEKitBinary.run(["mix", "--speech", "corpus:speech", "--noise", "corpus:noise", "--count", "8",
                                             "--seconds", "0.5",
                                             "--split", "train=0.5,test=0.5", "--out", folder.path(out), "--catalog", catalog] + extra)
            #expect(mixed.status == 0, "\(mixed.stderr)")
        }
        try mix("shared", ["--split-sources", "speech"])
        let check = try SEKitBinary.run(["catalog", "check", "--catalog", catalog])
        #expect(check.status == 0 && !check.stdout.contains("split leak"), "\(check.stdout)\(check.stderr)")
        // A mix that promised every kind disjoint is still checked (the noise used in both splits is a leak).
        let catalogAll = folder.path("all.sqlite")
        try FileManager.default.copyItem(atPath: catalog, toPath: catalogAll)
        try folder.sqlite(catalogAll, "DELETE FROM params WHERE key = 'split_sources'")
        let leaking = try SEKitBinary.run(["catalog", "check", "--catalog", catalogAll])
        #expect(leaking.status != 0 && leaking.stdout.contains("split leak: source noise:"), "\(leaking.stdout)")
    }

    /// Item 22: a garbage line in `--from-manifest` was "DecodingError.dataCorrupted … (--overwrite replaces it)".
    @Test func aGarbageManifestLineIsNamedWithoutTheWrongRemedy() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.mixSplitCorpus(count: 4)
        try FileManager.default.createDirectory(at: folder.file("edited"), withIntermediateDirectories: true)
        for name in ["manifest.jsonl", "mix.json"] {
            try FileManager.default.copyItem(atPath: folder.path("corpus/\(name)"), toPath: folder.path("edited/\(name)"))
        }
        var manifest = try String(contentsOfFile: folder.path("edited/manifest.jsonl"), encoding: .utf8)
        manifest += "this is not json\n"
        try manifest.write(toFile: folder.path("edited/manifest.jsonl"), atomically: true, encoding: .utf8)
        let result = try SEKitBinary.run(["mix", "--from-manifest", folder.path("edited/manifest.jsonl"), "--out", folder.path("again"),
                                          "--no-catalog"])
        #expect(result.status != 0 && result.stderr.contains("line 5 is not a manifest record (not JSON)"), "\(result.stderr)")
        #expect(!result.stderr.contains("--overwrite") && !result.stderr.contains("DecodingError"), "\(result.stderr)")
    }

    /// Item 15: `--speaker-pattern '^([^/]+)/'` worked in `catalog import` (relative path) but not in `mix`
    /// (absolute path: "has no speaker"). One rule: the path relative to the folder given.
    @Test func oneSpeakerPatternWorksInMixAndImport() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for (i, speaker) in ["spk1", "spk1", "spk2", "spk2", "spk3", "spk3"].enumerated() {
            try FileManager.default.createDirectory(at: folder.file("speech/\(speaker)"), withIntermediateDirectories: true)
            try folder.writeWAV("speech/\(speaker)/u\(i).wav", frames: 16_000, seed: i)
        }
        for i in 0..<2 { try folder.writeWAV("noise/n\(i).wav", frames: 24_000, seed: 9 + i) }
        let pattern = "^([^/]+)/"
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "6",
                                         "--seconds", "0.5", "--split", "train=0.5,test=0.5", "--disjoint", "speakers",
                                         "--speaker-pattern", pattern, "--out", folder.path("corpus"), "--no-catalog"])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let manifest = (try? String(contentsOfFile: folder.path("corpus/manifest.jsonl"), encoding: .utf8)) ?? ""
        for speaker in ["spk1", "spk2", "spk3"] { #expect(manifest.contains("\"speaker\":\"\(speaker)\""), "\(speaker)") }
        let catalog = folder.path("catalog.sqlite")
        let imported = try SEKitBinary.run(["catalog", "import", "--kind", "speech", "--corpus", "s", "--speaker-pattern", pattern,
                                            folder.path("speech"), "--catalog", catalog])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(DISTINCT speaker) FROM sources WHERE speaker IS NOT NULL") == "3")
    }
}
