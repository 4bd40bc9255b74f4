import Foundation
import Testing

/// `sekit features` and `sekit synthesize` through the real binary, with the catalogue.
@Suite struct FeaturesCommandTests {
    @Test(.enabled(if: MixCommandTests.sqliteAvailable, "needs /usr/bin/sqlite3")) func featuresAndSynthesizeRecordRunsAndRefuseOverwrites() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try MixCommandTests().makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "6",
                                         "--seconds", "0.5", "--split", "train=0.5,test=0.5", "--out", folder.path("out"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let h5 = folder.path("out/features.h5")
        let arguments = ["features", "--corpus", folder.path("out"), "--out", h5, "--targets", "clean,irm,noisy_phase",
                         "--feature", "compressed", "--compression", "gzip:4", "--dtype", "float16", "--catalog", catalog]
        let exported = try SEKitBinary.run(arguments)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("clips: 6"))
        #expect(try folder.sqlite(catalog, "SELECT r.status FROM runs r JOIN runs m ON m.id = r.parent_id WHERE r.kind = 'features' AND m.kind = 'mix'") == "finished")
        #expect(try folder.sqlite(catalog, "SELECT kind || ' ' || length(sha256) FROM artifacts WHERE path LIKE '%features.h5'") == "features-hdf5 64")
        #expect(try folder.sqlite(catalog, "SELECT value_text FROM params WHERE key = 'feature'") == "compressed")
        let again = try SEKitBinary.run(arguments)
        #expect(again.status != 0 && again.stderr.contains("--overwrite"), "an existing feature file is refused")
        let badTarget = try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", folder.path("x.h5"), "--targets", "clean,snr"])
        #expect(badTarget.status != 0 && badTarget.stderr.contains("snr"))
        let noCorpus = try SEKitBinary.run(["features", "--corpus", folder.path("nowhere"), "--out", folder.path("y.h5"), "--no-catalog"])
        #expect(noCorpus.status != 0 && noCorpus.stderr.contains("manifest"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("y.h5")))

        let synthesized = try SEKitBinary.run(["synthesize", "--features", h5, "--dataset", "irm", "--out", folder.path("oracle"), "--catalog", catalog])
        #expect(synthesized.status == 0, "\(synthesized.stderr)")
        let wavs = try FileManager.default.contentsOfDirectory(atPath: folder.path("oracle")).filter { $0.hasSuffix(".wav") }
        #expect(wavs.count == 6)
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs r JOIN runs f ON f.id = r.parent_id WHERE r.kind = 'synthesize' AND f.kind = 'features'") == "1")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--enhanced", folder.path("oracle"), "--metrics", "snr",
                                          "--checkpoint", "oracle", "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
        let wrong = try SEKitBinary.run(["synthesize", "--features", h5, "--dataset", "nothing", "--out", folder.path("o2"), "--no-catalog"])
        #expect(wrong.status != 0 && wrong.stderr.contains("nothing"))
    }
}
