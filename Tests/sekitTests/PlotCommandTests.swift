import Foundation
import Testing

/// `sekit plot` end to end on real speech.
@Suite(.needsFixtures)
struct PlotCommandTests {
    @Test func drawsRealSpeechAsPNGAndSVG() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fixtures = GoldenCorpus.fixtures.path
        for format in ["png", "svg"] {
            let out = folder.path("figure.\(format)")
            let result = try SEKitBinary.run(["plot", fixtures + "/noisy/vctk_p287_002.wav", fixtures + "/speech/vctk_p287_002.wav",
                                              "--labels", "noisy,clean", "--kind", "both", "--title", "babble, 0 dB", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("plot: 4 panels, 3.26 s, 1200x"), "\(result.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: out))
            if format == "png" {
                #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            } else {
                #expect(String(decoding: data, as: UTF8.self).contains("<title>babble, 0 dB: 4 panels (noisy, noisy, clean, clean)"))
            }
        }
    }

    @Test func badInputNamesTheFileAndExitsNonZero() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fixtures = GoldenCorpus.fixtures.path
        let mismatched = try SEKitBinary.run(["plot", fixtures + "/speech/vctk_p287_002.wav", fixtures + "/speech/vctk_p287_003.wav",
                                              "--out", folder.path("x.png")])
        #expect(mismatched.status == 1)
        #expect(mismatched.stderr.contains(fixtures + "/speech/vctk_p287_003.wav") && mismatched.stderr.contains("--max-seconds"),
                "\(mismatched.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.png")))
        let cropped = try SEKitBinary.run(["plot", fixtures + "/speech/vctk_p287_002.wav", fixtures + "/speech/vctk_p287_003.wav",
                                           "--max-seconds", "2", "--out", folder.path("x.png")])
        #expect(cropped.status == 0, "\(cropped.stderr)")
        let badKind = try SEKitBinary.run(["plot", fixtures + "/speech/vctk_p287_002.wav", "--kind", "bars", "--out", folder.path("y.png")])
        #expect(badKind.status == 64 && badKind.stderr.contains("spectrogram"), "\(badKind.stderr)")
    }
}
