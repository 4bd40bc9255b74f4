import Foundation
import Testing

/// `sekit features` and `sekit synthesize` through the real binary, with the catalogue.
@Suite struct FeaturesCommandTests {
    @Test(.enabled(if: MixCommandTests.sqliteAvailable,
                   "needs /usr/bin/sqlite3")) func featuresAndSynthesizeRecordRunsAndRefuseOverwrites() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try MixCommandTests().makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "6",
                                         "--seconds", "0.5", "--split", "train=0.5,test=0.5", "--out", folder.path("out"), "--catalog",
                                                 catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let h5 = folder.path("out/features.h5")
        let arguments = ["features", "--corpus", folder.path("out"), "--out", h5, "--targets", "clean,irm,noisy_phase",
                         "--feature", "compressed", "--compression", "gzip:4", "--dtype", "float16", "--catalog", catalog]
        let exported = try SEKitBinary.run(arguments)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("clips: 6"))
        #expect(try folder.sqlite(catalog,
                "SELECT r.status FROM runs r JOIN runs m ON m.id = r.parent_id WHERE r.kind = 'features' AND m.kind = 'mix'") == "finished")
        #expect(try folder.sqlite(catalog,
                "SELECT kind || ' ' || length(sha256) FROM artifacts WHERE path LIKE '%features.h5'") == "features-hdf5 64")
        #expect(try folder.sqlite(catalog, "SELECT value_text FROM params WHERE key = 'feature'") == "compressed")
        let again = try SEKitBinary.run(arguments)
        #expect(again.status != 0 && again.stderr.contains("--overwrite"), "an existing feature file is refused")
        let badTarget = try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", folder.path("x.h5"), "--targets",
                                             "clean,snr"])
        #expect(badTarget.status != 0 && badTarget.stderr.contains("snr"))
        let noCorpus = try SEKitBinary.run(["features", "--corpus", folder.path("nowhere"), "--out", folder.path("y.h5"), "--no-catalog"])
        #expect(noCorpus.status != 0 && noCorpus.stderr.contains("manifest"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("y.h5")))

        let synthesized = try SEKitBinary.run(["synthesize", "--features", h5, "--dataset", "irm", "--out", folder.path("oracle"),
                                               "--catalog", catalog])
        #expect(synthesized.status == 0, "\(synthesized.stderr)")
        let wavs = try FileManager.default.contentsOfDirectory(atPath: folder.path("oracle")).filter { $0.hasSuffix(".wav") }
        #expect(wavs.count == 6)
        #expect(try folder.sqlite(catalog,
                "SELECT count(*) FROM runs r JOIN runs f ON f.id = r.parent_id WHERE r.kind = 'synthesize' AND f.kind = 'features'") == "1")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--enhanced", folder.path("oracle"), "--metrics", "snr",
                                          "--checkpoint", "oracle", "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
        let wrong = try SEKitBinary.run(["synthesize", "--features", h5, "--dataset", "nothing", "--out", folder.path("o2"),
                                         "--no-catalog"])
        #expect(wrong.status != 0 && wrong.stderr.contains("nothing"))
    }

    /// `--framing dns`: 20 ms and 10 ms at the corpus's rate (16 kHz here: 320 and 160 samples), as
    /// the run's parameters and the file's attributes say; explicit sizes beside it are refused.
    @Test(.enabled(if: MixCommandTests.sqliteAvailable, "needs /usr/bin/sqlite3")) func theDnsFramingPresetTakesTheCorpusRate() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try MixCommandTests().makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "3",
                                         "--seconds", "0.5", "--out", folder.path("out"), "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let h5 = folder.path("dns.h5")
        let exported = try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", h5, "--framing", "dns",
                                            "--catalog", catalog])
        #expect(exported.status == 0, "\(exported.stderr)")
        let params = try folder.sqlite(catalog, """
            SELECT group_concat(key || '=' || value_text, ' ') FROM (SELECT key, value_text FROM params p JOIN runs r ON r.id = p.run_id
            WHERE r.kind = 'features' AND key IN ('framing', 'n_fft', 'win_length', 'hop_length', 'window') ORDER BY key)
            """)
        #expect(params == "framing=dns hop_length=160 n_fft=320 win_length=320 window=hann")
        // 0.5 s at 16 kHz, centred, hop 160: 1 + 8000 / 160 = 51 frames per clip, 161 bins.
        #expect(exported.stdout.contains("clips: 3, frames: 153, bins: 161,"), "\(exported.stdout)")
        let both = try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", folder.path("x.h5"), "--framing", "dns",
                                        "--n-fft", "512", "--no-catalog"])
        #expect(both.status != 0 && both.stderr.contains("leave out --n-fft"), "\(both.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.h5")))
    }
}
