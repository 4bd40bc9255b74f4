import Foundation
import Testing

/// A corpus whose mix did not finish (here: one of two shards made) is refused by `features`
/// and `score` unless `--allow-incomplete`, which counts the missing clips.
@Suite struct IncompleteCorpusTests {
    @Test func featuresAndScoreRefuseAnUnfinishedCorpus() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for i in 0..<3 { try folder.writeWAV("speech/u\(i).wav", frames: 16_000, seed: i) }
        try folder.writeWAV("noise/n.wav", frames: 24_000, seed: 9)
        let mix = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "6",
                                       "--seconds", "0.5", "--shard", "1/2", "--out", folder.path("out"), "--no-catalog"])
        #expect(mix.status == 0, "\(mix.stderr)")
        let features = try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", folder.path("f.h5"), "--no-catalog"])
        #expect(features.status == 1)
        #expect(features.stderr.contains("holds 3 of the 6 clips its mix planned (3 missing")
                    && features.stderr.contains("--allow-incomplete"),
                "\(features.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("f.h5")))
        let allowed = try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", folder.path("f.h5"),
                                           "--allow-incomplete", "--no-catalog"])
        #expect(allowed.status == 0 && allowed.stdout.contains("clips: 3,") && allowed.stderr.contains("3 planned clips are missing"),
                "\(allowed.stdout)\(allowed.stderr)")
        let score = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr", "--no-catalog"])
        #expect(score.status == 1 && score.stderr.contains("3 missing"), "\(score.stderr)")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr", "--allow-incomplete",
                                          "--no-catalog"])
        #expect(scored.status == 0 && scored.stderr.contains("3 planned clips are missing"), "\(scored.stderr)")
    }
}
