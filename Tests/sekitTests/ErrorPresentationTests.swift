import Foundation
import Testing

/// Library errors name parameters; the command line presents them as the flags that set them.
@Suite struct ErrorPresentationTests {
    @Test func parameterErrorsNameTheFlag() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.writeWAV("speech/a.wav", frames: 16_000)
        try folder.writeWAV("noise/n.wav", frames: 16_000, seed: 3)
        let mix = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "2",
                                       "--snr-db", "abc", "--out", folder.path("out"), "--no-catalog"])
        // A flag's value that cannot be used is a usage error: exit 64 (README), as an unknown flag is.
        #expect(mix.status == 64)
        #expect(mix.stderr.contains("Error: --snr-db abc: 'abc' is not a number"), "\(mix.stderr)")
        let features = try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", folder.path("f.h5"),
                                            "--hop-length", "0", "--no-catalog"])
        #expect(features.status == 64 && features.stderr.contains("Error: --hop-length 0: must be positive"), "\(features.stderr)")
    }

    @Test func missingCatalogueAndExistingOutputSayWhichFlagHelps() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let runs = try SEKitBinary.run(["runs", "list", "--catalog", folder.path("none.sqlite")])
        #expect(runs.status == 1 && runs.stderr.contains("choose another with --catalog or SEKIT_CATALOG"), "\(runs.stderr)")
        try Data("x".utf8).write(to: folder.url.appendingPathComponent("f.h5"))
        try folder.writeWAV("c/noisy/a.wav")
        try Data("{}\n".utf8).write(to: folder.url.appendingPathComponent("c/manifest.jsonl"))
        let features = try SEKitBinary.run(["features", "--corpus", folder.path("c"), "--out", folder.path("f.h5"), "--no-catalog"])
        #expect(features.status == 1 && features.stderr.contains("output exists (pass --overwrite to replace it)"), "\(features.stderr)")
    }

    /// An empty metric list is a usage error, not a scoring of nothing with exit 0.
    @Test func anEmptyMetricListIsAUsageError() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.writeWAV("ref/a.wav"); try folder.writeWAV("enh/a.wav", seed: 2)
        let result = try SEKitBinary.run(["score", "--reference", folder.path("ref"), "--enhanced", folder.path("enh"),
                                          "--metrics", " , ", "--no-catalog"])
        #expect(result.status == 64 && result.stderr.contains("--metrics: no metric named"), "\(result.stderr)")
    }

    /// Random bytes named like audio: the message says so, and the MPEG decoder's own notes stay
    /// off stderr.
    @Test func randomBytesAreNotARecognisedAudioFile() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        var generator = SystemRandomNumberGenerator()
        for name in ["noise.wav", "noise.mp3"] {
            try Data((0..<20_000).map { _ in UInt8.random(in: 0...255,
                                                          using: &generator) }).write(to: folder.url.appendingPathComponent(name))
        }
        let result = try SEKitBinary.run(["info", folder.path("noise.wav"), folder.path("noise.mp3")])
        #expect(result.status == 1)
        for name in ["noise.wav", "noise.mp3"] {
            #expect(result.stderr.contains("\(folder.path(name)): cannot read audio: not a recognised audio file"), "\(result.stderr)")
        }
        #expect(!result.stderr.contains("Note:") && !result.stderr.contains("MPEG-Header"), "\(result.stderr)")
    }
}
