import Foundation
import Testing

/// The challenge measures through the binary: `--metrics urgent-offline` (the URGENT 2025 measures
/// SEKit computes offline, the missing ones named on stderr, the preset recorded), `srmr` and
/// `bss_eval` in the catalogue and in `runs diff`.
@Suite(.serialized, .needsFixtures, .enabled(if: PaperMetrics.pythonRequired, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct ScoreChallengeMeasuresCommandTests {
    struct Clip: Decodable { let clip_id: String; let metrics: [String: Double] }
    struct Output: Decodable { let clips: [Clip] }

    @Test func urgentPresetSRMRAndSDRThroughScoreAndRunsDiff() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fixtures = GoldenCorpus.fixtures, fm = FileManager.default
        for side in ["reference", "enhanced", "dry"] {
            try fm.createDirectory(at: folder.url.appendingPathComponent(side), withIntermediateDirectories: true)
        }
        let copies: [(String, [String])] = [
            ("speech/vctk_p287_002.wav", ["reference/a.wav", "dry/a.wav"]), ("noisy/vctk_p287_002.wav", ["enhanced/a.wav"]),
            ("speech/vctk_p287_003.wav", ["reference/b.wav", "dry/b.wav"]), ("noisy/vctk_p287_003.wav", ["enhanced/b.wav"]),
        ]
        for (fixture, copies) in copies {
            for copy in copies {
                try fm.copyItem(at: fixtures.appendingPathComponent(fixture), to: folder.url.appendingPathComponent(copy))
            }
        }
        let catalog = folder.path("catalog.sqlite")
        let urgent = try SEKitBinary.run(["score", "--reference", folder.path("reference"), "--enhanced", folder.path("enhanced"),
                                          "--metrics", "urgent-offline,srmr", "--format", "json", "--checkpoint", "noisy-input",
                                          "--catalog", catalog])
        #expect(urgent.status == 0, "\(urgent.stderr)")
        #expect(urgent.stderr.contains("--metrics urgent-offline computes dnsmos_ovrl, pesq_wb, estoi, sdr, lsd, speaker_similarity; "
                                       + "not computed:"),
                "\(urgent.stderr)")
        #expect(urgent.stderr.contains("intrusive: MCD") && urgent.stderr.contains("character accuracy"), "\(urgent.stderr)")
        let clips = try JSONDecoder().decode(Output.self, from: Data(urgent.stdout.utf8)).clips
        #expect(clips.count == 2)
        for clip in clips {
            #expect(Set(clip.metrics.keys) == ["dnsmos_ovrl", "pesq_wb", "estoi", "sdr", "lsd", "speaker_similarity", "srmr"],
                    "\(clip.metrics.keys.sorted())")
        }
        let shown = try SEKitBinary.run(["runs", "show", "noisy-input", "--format", "json", "--catalog", catalog])
        #expect(shown.status == 0 && shown.stdout.contains("\"metric_preset\"") && shown.stdout.contains("urgent-offline"),
                "\(shown.stdout)")

        // The leaderboard orders and names the columns by the preset's categories.
        let board = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "noisy-input", "--catalog", catalog])
        #expect(board.stdout.contains("Columns by category of --metrics urgent-offline: non-intrusive: dnsmos_ovrl; intrusive: "
                                      + "pesq_wb, estoi, sdr, lsd; downstream-dependent: speaker_similarity; not in the preset: srmr"),
                "\(board.stdout)")

        // The clean speech itself as the output: far higher SDR, and SRMR in the catalogue for both runs.
        let dry = try SEKitBinary.run(["score", "--reference", folder.path("reference"), "--enhanced", folder.path("dry"),
                                       "--metrics", "bss_eval,srmr", "--checkpoint", "dry", "--catalog", catalog])
        #expect(dry.status == 0, "\(dry.stderr)")
        let diff = try SEKitBinary.run(["runs", "diff", "noisy-input", "dry", "--format", "csv", "--catalog", catalog])
        #expect(diff.status == 0, "\(diff.stderr)")
        let rows = diff.stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map(String.init) }
        let header = try #require(rows.first)
        let metric = try #require(header.firstIndex(of: "metric")), subset = try #require(header.firstIndex(of: "subset"))
        let measured = Set(rows.dropFirst().filter { $0[subset] == "all" }.map { $0[metric] })
        #expect(measured == ["sdr", "srmr"], "\(diff.stdout)")
        // Two checkpoints scored with and without the preset: no categories.
        let mixed = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "noisy-input", "--catalog", catalog])
        #expect(mixed.status == 0 && !mixed.stdout.contains("Columns by category"), "\(mixed.stdout)")
    }

    /// `--transcripts`: wer and cer of each clip against its line; a clip with two lines or none is a
    /// per-clip error for them only (snr is scored); the run records the file and its hash; scoring
    /// without a reference works (wer needs none); the usage errors name the other option.
    @Test func errorRatesAgainstATranscriptFile() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fixtures = GoldenCorpus.fixtures, fm = FileManager.default
        for side in ["reference", "enhanced"] {
            try fm.createDirectory(at: folder.url.appendingPathComponent(side), withIntermediateDirectories: true)
            for (name, fixture) in [("a", "vctk_p287_002"), ("b", "vctk_p287_003"), ("c", "vctk_p287_004")] {
                let source = side == "reference" ? "speech/\(fixture).wav" : "noisy/\(fixture).wav"
                try fm.copyItem(at: fixtures.appendingPathComponent(source), to: folder.url.appendingPathComponent("\(side)/\(name).wav"))
            }
        }
        let tsv = folder.path("transcripts.tsv")
        let lines = "a\tAsk her to bring these things with her from the store.\nb.wav\tone\nb\ttwo\n"
        try lines.write(toFile: tsv, atomically: true, encoding: .utf8)
        let catalog = folder.path("catalog.sqlite")
        let scored = try SEKitBinary.run(["score", "--reference", folder.path("reference"), "--enhanced", folder.path("enhanced"),
                                          "--metrics", "snr,wer,cer", "--transcripts", tsv, "--format", "json", "--checkpoint", "asr",
                                          "--catalog", catalog])
        #expect(scored.status != 0, "two clips have no usable transcript: \(scored.stderr)")
        let clips = try JSONDecoder().decode(Output.self, from: Data(scored.stdout.utf8)).clips
        let byID = Dictionary(uniqueKeysWithValues: clips.map { ($0.clip_id, $0.metrics) })
        #expect(byID["a.wav"]?["wer"] != nil && byID["a.wav"]?["cer"] != nil, "\(byID)")
        #expect(byID["b.wav"]?["wer"] == nil && byID["b.wav"]?["snr"] != nil && byID["c.wav"]?["wer"] == nil, "\(byID)")
        #expect(scored.stdout.contains("has 2 lines for b") && scored.stdout.contains("has no line for c.wav"), "\(scored.stdout)")
        let shown = try SEKitBinary.run(["runs", "show", "asr", "--format", "json", "--catalog", catalog])
        #expect(shown.stdout.contains("\"transcripts_sha256\"") && shown.stdout.contains("transcripts.tsv"), "\(shown.stdout)")
        // No reference needed.
        let alone = try SEKitBinary.run(["score", "--enhanced", folder.path("enhanced"), "--metrics", "wer", "--transcripts", tsv,
                                         "--allow-failures", "--no-catalog", "--format", "json"])
        #expect(alone.status == 0, "\(alone.stderr)")
        let withoutFile = try SEKitBinary.run(["score", "--enhanced", folder.path("enhanced"), "--metrics", "wer"])
        #expect(withoutFile.status != 0 && withoutFile.stderr.contains("scores against --transcripts FILE.tsv"), "\(withoutFile.stderr)")
        let unused = try SEKitBinary.run(["score", "--enhanced", folder.path("enhanced"), "--metrics", "wada_snr", "--transcripts", tsv])
        #expect(unused.status != 0 && unused.stderr.contains("--transcripts is read by wer and cer only"), "\(unused.stderr)")
    }

    @Test func anUnknownPresetNamesTheKnownOnes() throws {
        let result = try SEKitBinary.run(["score", "--enhanced", "/nonexistent", "--metrics", "urgent"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("unknown metric 'urgent'") && result.stderr.contains("urgent-offline, dns"), "\(result.stderr)")
    }
}
