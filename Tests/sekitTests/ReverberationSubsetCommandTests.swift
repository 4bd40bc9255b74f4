import Foundation
import Testing

/// A score of a partly reverberated corpus breaks down by reverberation (`rir=none`, `rir=any`,
/// `rir=NAME`, `target=T`): in `sekit score`'s summary, in the catalogue's `run_metrics`, the same
/// again when recomputed from the catalogue (`score --from-run`), and as `runs diff --subset`.
@Suite(.serialized, .needsFixtures) struct ReverberationSubsetCommandTests {
    struct Aggregate: Decodable, Equatable { let metric: String; let subset: String; let n: Int; let mean: Double? }
    struct Output: Decodable { let summary: [Aggregate] }

    @Test func reverberationSubsetsInScoreCatalogueAndRunsDiff() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fixtures = TestProject.fixtures, catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", fixtures.appendingPathComponent("speech").path,
                                         "--noise", fixtures.appendingPathComponent("noise").path,
                                         "--rir", fixtures.appendingPathComponent("rir/small_room.wav").path,
                                         "--rir", fixtures.appendingPathComponent("rir/medium_room.wav").path,
                                         "--rir-probability", "0.5", "--target", "early", "--count", "12", "--seconds", "2.5",
                                         "--snr-db", "0,10", "--seed", "4", "--out", folder.path("corpus"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let manifest = try String(contentsOfFile: folder.path("corpus/manifest.jsonl"), encoding: .utf8)
        let lines = manifest.split(whereSeparator: \.isNewline)
        let small = lines.filter { $0.contains("small_room.wav") }.count, medium = lines.filter { $0.contains("medium_room.wav") }.count
        #expect(small > 0 && medium > 0 && small + medium < 12, "small \(small), medium \(medium)")

        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--metrics", "snr,srmr", "--format", "json",
                                          "--checkpoint", "noisy", "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
        let summary = try JSONDecoder().decode(Output.self, from: Data(scored.stdout.utf8)).summary.filter { $0.metric == "srmr" }
        let n = Dictionary(summary.map { ($0.subset, $0.n) }, uniquingKeysWith: { a, _ in a })
        #expect(n["rir=none"] == 12 - small - medium && n["rir=any"] == small + medium, "\(n)")
        #expect(n["rir=small_room"] == small && n["rir=medium_room"] == medium && n["target=early"] == small + medium, "\(n)")
        #expect(Set(summary.map(\.subset)).isSuperset(of: ["all", "snr=0", "snr=10"]))

        // The catalogue holds them, and recomputing from the catalogue gives the same numbers.
        let stored = try folder.sqlite(catalog, """
            SELECT subset FROM run_metrics WHERE metric = 'srmr' AND subset LIKE 'rir=%' ORDER BY subset
            """).split(separator: "\n").map(String.init)
        #expect(stored == ["rir=any", "rir=medium_room", "rir=none", "rir=small_room"])
        let again = try SEKitBinary.run(["score", "--from-run", "noisy", "--format", "json", "--catalog", catalog])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try JSONDecoder().decode(Output.self, from: Data(again.stdout.utf8)).summary.filter { $0.metric == "srmr" } == summary)

        // The clean speech as the output: compared with the noisy input on the reverberated clips.
        let clean = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--enhanced", folder.path("corpus/clean"),
                                         "--metrics", "snr,srmr", "--checkpoint", "clean", "--catalog", catalog])
        #expect(clean.status == 0, "\(clean.stderr)")
        let diff = try SEKitBinary.run(["runs", "diff", "noisy", "clean", "--subset", "rir=any,target=early", "--format", "csv",
                                        "--catalog", catalog])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("rir=any") && diff.stdout.contains("target=early") && !diff.stdout.contains("rir=none"),
                "\(diff.stdout)")
    }
}
