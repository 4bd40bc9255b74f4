import Foundation
import Testing

/// Issue 40 item 5: SNR subsets follow the mix's SNR specification, recorded with the corpus (a
/// range: 5 dB bands whatever the count; a list: one subset per value), not the number of distinct SNRs.
@Suite(.serialized) struct SNRSubsetCommandTests {
    /// Mixes `count` clips at `snr` into `out`, catalogued in `catalog`.
    func mix(_ folder: CatalogCLIFolder, out: String, snr: String, count: Int = 6, catalog: String) throws {
        if !FileManager.default.fileExists(atPath: folder.path("speech")) {
            for i in 0..<3 { try folder.writeWAV("speech/u\(i).wav", frames: 16_000, seed: i) }
            for i in 0..<2 { try folder.writeWAV("noise/n\(i).wav", frames: 24_000, seed: 9 + i) }
        }
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count",
                                         "\(count)", "--seconds", "0.5", "--snr-db", snr, "--out", folder.path(out), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
    }

    /// The subsets of a score run, from the catalogue.
    func subsets(_ folder: CatalogCLIFolder, run: String, catalog: String) throws -> [String] {
        try folder.sqlite(catalog, """
            SELECT DISTINCT subset FROM run_metrics WHERE subset LIKE 'snr=%'
            AND run_id = (SELECT id FROM runs WHERE name = '\(run)' AND kind = 'score') ORDER BY subset
            """).split(separator: "\n").map(String.init)
    }

    /// Six clips drawn from a continuous range got six one-clip subsets (`snr=-3.21`, n = 1) and
    /// `runs best --subset snr=0` failed; now they are banded, and the rule is in `mix.json` and both runs.
    @Test func aSmallContinuousDrawIsBandedAndAListIsNot() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        try mix(folder, out: "range", snr: "-5:10", catalog: catalog)
        try mix(folder, out: "list", snr: "0,5", catalog: catalog)
        func recordedRule(_ corpus: String) throws -> String? {
            let spec = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("\(corpus)/mix.json"))))
            return (spec as? [String: Any])?["snr_subsets"] as? String
        }
        #expect(try recordedRule("range") == "5db-bands")
        #expect(try recordedRule("list") == "per-value")
        for corpus in ["range", "list"] {
            let scored = try SEKitBinary.run(["score", "--corpus", folder.path(corpus), "--metrics", "snr",
                                              "--checkpoint", "\(corpus)-noisy",
                                              "--catalog", catalog])
            #expect(scored.status == 0, "\(scored.stderr)")
        }
        let banded = try subsets(folder, run: "range-noisy", catalog: catalog)
        #expect(!banded.isEmpty && banded.allSatisfy { $0.hasPrefix("snr=[") }, "\(banded)")
        #expect(try subsets(folder, run: "list-noisy", catalog: catalog) == ["snr=0", "snr=5"])
        let recorded = try folder.sqlite(catalog, """
            SELECT r.kind || ' ' || r.name || ' ' || p.value_text FROM params p JOIN runs r ON r.id = p.run_id
            WHERE p.key = 'snr_subsets' ORDER BY r.kind, r.name
            """)
        #expect(recorded == "mix list per-value\nmix range 5db-bands\nscore list-noisy per-value\nscore range-noisy 5db-bands",
                "\(recorded)")
        // `snr=0` names the band that holds it, when there is one.
        #expect(banded.contains("snr=[0,5)"), "\(banded)")
        let best = try SEKitBinary.run(["runs", "best", "--metric", "snr", "--subset", "snr=0", "--corpus", "range",
                                        "--catalog", catalog])
        #expect(best.status == 0 && best.stdout.contains("snr=[0,5)"), "\(best.stdout)\(best.stderr)")
        // Shards folded by a merge are recomputed with the recorded rule, not the count rule.
        var shards: [String] = []
        for shard in ["1/2", "2/2"] {
            let path = folder.path("shard-\(shards.count).sqlite")
            try FileManager.default.copyItem(atPath: catalog, toPath: path)
            let scored = try SEKitBinary.run(["score", "--corpus", folder.path("range"), "--metrics", "snr", "--checkpoint", "sharded",
                                              "--shard", shard, "--catalog", path])
            #expect(scored.status == 0, "\(scored.stderr)")
            shards.append(path)
        }
        let merged = folder.path("merged.sqlite")
        let merge = try SEKitBinary.run(["catalog", "merge", merged] + shards)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try subsets(folder, run: "sharded", catalog: merged) == banded)
    }
}
