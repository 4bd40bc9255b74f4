import Foundation
import Testing

/// `sekit enhance` end to end on real speech: a corpus mixed from the fixtures at 0 and 5 dB,
/// every method applied, every output scored with `sekit score`, the table printed.
@Suite(.serialized, .needsFixtures)
struct EnhanceCommandTests {
    static let methods = ["specsub", "mmse-stsa", "logmmse", "wiener", "oracle-irm", "oracle-ibm", "oracle-psm"]

    /// Mean of `metric` over the clips in `sekit score --format json` output.
    static func mean(_ json: String, _ metric: String, noisy: Bool = false) throws -> Double {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [[String: Any]])
        let name = noisy ? metric + "_noisy" : metric
        let row = try #require(summary.first { $0["metric"] as? String == name && $0["subset"] as? String == "all" })
        return try #require(row["mean"] as? Double)
    }

    @Test func everyBlindMethodRaisesSegSNRAndTheOracleRaisesSTOIAndSISDR() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fixtures = GoldenCorpus.fixtures.path
        let catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/running_tap.wav",
                                         "--noise", fixtures + "/noise/exercise_bike.wav", "--count", "12", "--seconds", "3",
                                         "--snr-db", "0,5", "--seed", "5", "--out", folder.path("corpus"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        var table = "method        segsnr  (noisy)   sisdr  (noisy)   stoi  (noisy)\n"
        for method in Self.methods {
            let out = folder.path("enhanced/\(method)")
            let enhanced = try SEKitBinary.run(["enhance", "--method", method, "--corpus", folder.path("corpus"), "--out", out,
                                                "--jobs", "2", "--catalog", catalog])
            #expect(enhanced.status == 0, "\(method): \(enhanced.stderr)")
            let scored = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--enhanced", out, "--checkpoint", method,
                                              "--metrics", "segsnr,sisdr,stoi", "--format", "json", "--catalog", catalog])
            #expect(scored.status == 0, "\(method): \(scored.stderr)")
            let seg = try Self.mean(scored.stdout, "segsnr"), segNoisy = try Self.mean(scored.stdout, "segsnr", noisy: true)
            let sisdr = try Self.mean(scored.stdout, "sisdr"), sisdrNoisy = try Self.mean(scored.stdout, "sisdr", noisy: true)
            let stoi = try Self.mean(scored.stdout, "stoi"), stoiNoisy = try Self.mean(scored.stdout, "stoi", noisy: true)
            table += method.padding(toLength: 12, withPad: " ", startingAt: 0) + String(format: " %7.2f %8.2f %7.2f %8.2f %6.3f %8.3f\n",
                                                                                        seg, segNoisy, sisdr, sisdrNoisy, stoi, stoiNoisy)
            // More than level alone moves segSNR here: halving the noisy input raises it by about 1 dB.
            #expect(seg > segNoisy + 1.5, "\(method) should raise segSNR: \(seg) vs \(segNoisy)")
            if method.hasPrefix("oracle") {
                #expect(stoi > stoiNoisy && sisdr > sisdrNoisy, "\(method): STOI \(stoi) vs \(stoiNoisy), SI-SDR \(sisdr) vs \(sisdrNoisy)")
            }
        }
        print(table)
        // Scores of enhanced folders descend from their enhance run, which descends from the mix.
        let lineage = try folder.sqlite(catalog, """
            SELECT count(*) FROM runs s JOIN runs e ON e.id = s.parent_id JOIN runs m ON m.id = e.parent_id
            WHERE s.kind = 'score' AND e.kind = 'enhance' AND m.kind = 'mix'
            """)
        #expect(lineage == "\(Self.methods.count)")
        let params = try folder.sqlite(catalog, "SELECT value_text FROM params p JOIN runs r ON r.id = p.run_id "
                                       + "WHERE r.name = 'logmmse' AND r.kind = 'enhance' AND key = 'method'")
        #expect(params == "logmmse")
    }

    /// The shards of one command (Slurm array tasks) write one output folder, each recording into
    /// its own catalogue; each score shard descends from the enhance shard of its catalogue.
    @Test func enhanceShardsShareTheFolderAndEachScoreShardDescendsFromItsEnhanceShard() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fixtures = GoldenCorpus.fixtures.path
        for shard in 1...2 {
            let catalog = folder.path("shard-\(shard).sqlite")
            let mixed = try SEKitBinary.run(["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/running_tap.wav",
                                             "--count", "6", "--seconds", "1", "--seed", "5", "--out", folder.path("corpus"),
                                             "--shard", "\(shard)/2", "--catalog", catalog])
            #expect(mixed.status == 0, "\(mixed.stderr)")
        }
        for step in ["enhance", "score"] {
            for shard in 1...2 {
                let catalog = folder.path("shard-\(shard).sqlite")
                let arguments = step == "enhance"
                    ? ["enhance", "--method", "wiener", "--corpus", folder.path("corpus"), "--out", folder.path("enhanced")]
                    : ["score", "--corpus", folder.path("corpus"), "--enhanced", folder.path("enhanced"), "--metrics", "snr"]
                let run = try SEKitBinary.run(arguments + ["--shard", "\(shard)/2", "--catalog", catalog])
                #expect(run.status == 0, "\(step) \(shard)/2: \(run.stderr)")
            }
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path("enhanced"))
        #expect(written.filter { $0.hasSuffix(".wav") }.count == 6)
        #expect(written.contains(".sekit-enhance-shard-1-of-2.json") && written.contains(".sekit-enhance-shard-2-of-2.json"))
        for shard in 1...2 {
            let lineage = try folder.sqlite(folder.path("shard-\(shard).sqlite"), """
                SELECT count(*) FROM runs s JOIN runs e ON e.id = s.parent_id JOIN runs m ON m.id = e.parent_id
                WHERE s.kind = 'score' AND e.kind = 'enhance' AND m.kind = 'mix'
                """)
            #expect(lineage == "1", "shard \(shard)")
        }
    }

    @Test func badInputIsNamedAndAFailingClipIsCountedWhileTheOthersAreWritten() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for i in 0..<3 { try folder.writeWAV("noisy/a\(i).wav", frames: 16_000, seed: i) }
        // Oracle masks need a corpus.
        let oracle = try SEKitBinary.run(["enhance", "--method", "oracle-irm", "--input", folder.path("noisy"), "--out", folder.path("o"),
                                          "--no-catalog"])
        #expect(oracle.status != 0 && oracle.stderr.contains("--corpus"), "\(oracle.stderr)")
        // A folder without audio is named.
        try FileManager.default.createDirectory(atPath: folder.path("empty"), withIntermediateDirectories: true)
        let empty = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("empty"), "--out", folder.path("o"),
                                         "--no-catalog"])
        #expect(empty.status != 0 && empty.stderr.contains(folder.path("empty")), "\(empty.stderr)")
        // Random bytes named .wav: that clip fails with its name, the others are written.
        try Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) })
            .write(to: URL(fileURLWithPath: folder.path("noisy/bad.wav")))
        let run = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("noisy"), "--out", folder.path("out"),
                                       "--no-catalog"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("bad.wav") && run.stdout.contains("3 clips"), "\(run.stdout) \(run.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).filter { $0.hasSuffix(".wav") }.sorted()
        #expect(written == ["a0.wav", "a1.wav", "a2.wav"])
        // An oracle mask whose clean stem is missing: that clip fails naming the file, the others are written.
        try MixCommandTests().makeSources(folder)
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "3",
                                         "--seconds", "0.5", "--out", folder.path("corpus"), "--no-catalog"])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let stems = try FileManager.default.contentsOfDirectory(atPath: folder.path("corpus/clean"))
            .filter { $0.hasSuffix(".wav") }.sorted()
        try FileManager.default.removeItem(atPath: folder.path("corpus/clean/\(stems[1])"))
        let masked = try SEKitBinary.run(["enhance", "--method", "oracle-psm", "--corpus", folder.path("corpus"), "--out",
                                          folder.path("psm"), "--no-catalog"])
        #expect(masked.status == 1 && masked.stderr.contains("clean/\(stems[1])"), "\(masked.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("psm")).filter { $0.hasSuffix(".wav") }.count == 2)
        // Output inside the input is refused.
        let inside = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("noisy"), "--out", folder.path("noisy/x"),
                                          "--no-catalog"])
        #expect(inside.status != 0 && inside.stderr.contains("inside the input folder"), "\(inside.stderr)")
    }
}
