import Foundation
import Testing

/// `sekit enhance --input FOLDER` (issue 26, item 5): inputs that would be written to one output
/// (`x.wav` and `x.flac` both to `x.wav`) are refused before anything is written; an input in
/// another format is enhanced into a WAV that `score --reference IN --enhanced OUT` pairs with it;
/// several channels and 16-bit clipping are stated, not silent.
@Suite struct EnhanceFolderInputTests {
    /// Writes a 16 kHz PCM16 WAV of interleaved `codes` with `channels` channels (header by hand).
    static func writeWAV(_ path: String, codes: [Int16], channels: Int = 1) throws {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = codes.count * 2
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + bytes)); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(UInt16(channels)); u32(16_000)
        u32(UInt32(16_000 * 2 * channels)); u16(UInt16(2 * channels)); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(bytes))
        for code in codes { u16(UInt16(bitPattern: code)) }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// A noise file written by `sekit noise` (`format` `flac-16` makes a FLAC).
    static func noise(_ path: String, format: String = "wav-pcm16", seed: Int = 1) throws {
        let made = try SEKitBinary.run(["noise", "--seconds", "1", "--seed", "\(seed)", "--format", format, path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    @Test func inputsThatWouldShareAnOutputAreRefusedBeforeAnythingIsWritten() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try FileManager.default.createDirectory(atPath: folder.path("in/sub"), withIntermediateDirectories: true)
        try Self.noise(folder.path("in/sub/x.wav"))
        try Self.noise(folder.path("in/sub/x.flac"), format: "flac-16", seed: 2)
        try Self.noise(folder.path("in/y.wav"), seed: 3)
        let run = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("in"), "--out", folder.path("out"),
                                       "--no-catalog"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("sub/x.flac, sub/x.wav") && run.stderr.contains("sub/x.wav"), "\(run.stderr)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder.path("out"))) ?? []
        #expect(written.filter { !$0.hasPrefix(".") }.isEmpty, "\(written)")
    }

    @Test func aFlacInputIsEnhancedIntoAWavThatScorePairsWithIt() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try FileManager.default.createDirectory(atPath: folder.path("in"), withIntermediateDirectories: true)
        try Self.noise(folder.path("in/a.flac"), format: "flac-16")
        try Self.noise(folder.path("in/b.wav"), seed: 2)
        let run = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("in"), "--out", folder.path("out"),
                                       "--no-catalog"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("out/a.wav")))
        let score = try SEKitBinary.run(["score", "--reference", folder.path("in"), "--enhanced", folder.path("out"),
                                         "--metrics", "snr", "--format", "json", "--no-catalog"])
        #expect(score.status == 0, "\(score.stdout)\(score.stderr)")
        #expect(!score.stderr.contains("a.flac"), "\(score.stderr)")
    }

    @Test func severalChannelsAndSixteenBitClippingAreStated() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        // Stereo: two different ramps.
        let frames = 16_000
        var stereo: [Int16] = []
        for n in 0..<frames { stereo.append(Int16((n * 37) % 20_000 - 10_000)); stereo.append(Int16((n * 53) % 16_000 - 8_000)) }
        try Self.writeWAV(folder.path("in/stereo.wav"), codes: stereo, channels: 2)
        // Quiet lead-in (the noise estimate), then a full-scale square wave: its reconstruction overshoots full scale.
        var loud = [Int16](repeating: 0, count: frames)
        for n in 0..<frames { loud[n] = n < 6_000 ? Int16((n % 7) - 3) : ((n / 20) % 2 == 0 ? 32_767 : -32_767) }
        try Self.writeWAV(folder.path("in/loud.wav"), codes: loud)
        let run = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("in"), "--out", folder.path("out"),
                                       "--format", "pcm16", "--no-catalog"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("1 input has several channels (stereo.wav: 2)"), "\(run.stderr)")
        #expect(run.stderr.contains("clipped in 1 output (first: loud.wav)"), "\(run.stderr)")
    }
}
