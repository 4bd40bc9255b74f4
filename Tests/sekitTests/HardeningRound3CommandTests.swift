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
