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
        for (fixture, copies) in [("speech/vctk_p287_002.wav", ["reference/a.wav", "dry/a.wav"]), ("noisy/vctk_p287_002.wav", ["enhanced/a.wav"]),
                                  ("speech/vctk_p287_003.wav", ["reference/b.wav", "dry/b.wav"]), ("noisy/vctk_p287_003.wav", ["enhanced/b.wav"])] {
            for copy in copies {
                try fm.copyItem(at: fixtures.appendingPathComponent(fixture), to: folder.url.appendingPathComponent(copy))
            }
        }
        let catalog = folder.path("catalog.sqlite")
        let urgent = try SEKitBinary.run(["score", "--reference", folder.path("reference"), "--enhanced", folder.path("enhanced"),
                                          "--metrics", "urgent-offline,srmr", "--format", "json", "--checkpoint", "noisy-input",
                                          "--catalog", catalog])
        #expect(urgent.status == 0, "\(urgent.stderr)")
        #expect(urgent.stderr.contains("--metrics urgent-offline computes dnsmos_ovrl, pesq_wb, estoi, sdr, lsd, speaker_similarity; not computed:"),
                "\(urgent.stderr)")
        #expect(urgent.stderr.contains("intrusive: MCD") && urgent.stderr.contains("character accuracy"), "\(urgent.stderr)")
        let clips = try JSONDecoder().decode(Output.self, from: Data(urgent.stdout.utf8)).clips
        #expect(clips.count == 2)
        for clip in clips {
            #expect(Set(clip.metrics.keys) == ["dnsmos_ovrl", "pesq_wb", "estoi", "sdr", "lsd", "speaker_similarity", "srmr"], "\(clip.metrics.keys.sorted())")
        }
        let shown = try SEKitBinary.run(["runs", "show", "noisy-input", "--format", "json", "--catalog", catalog])
        #expect(shown.status == 0 && shown.stdout.contains("\"metric_preset\"") && shown.stdout.contains("urgent-offline"),
                "\(shown.stdout)")

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
    }

    @Test func anUnknownPresetNamesTheKnownOnes() throws {
        let result = try SEKitBinary.run(["score", "--enhanced", "/nonexistent", "--metrics", "urgent"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("unknown metric 'urgent'") && result.stderr.contains("urgent-offline, dns"), "\(result.stderr)")
    }
}
