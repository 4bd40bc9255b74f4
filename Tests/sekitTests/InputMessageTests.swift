import Foundation
import Testing

/// Messages for input mistakes say what is wrong once, and what to do (issue 26, item 22).
@Suite(.serialized) struct InputMessageTests {
    @Test func aRangeWrittenWithDotsSuggestsTheColon() throws {
        let result = try SEKitBinary.run(["mix", "--speech", "/nonexistent", "--noise", "/nonexistent", "--snr-db", "-5..15",
                                          "--out", "/tmp/sekit-never-written", "--no-catalog"])
        #expect(result.status != 0 && result.stderr.contains("for a range write LOW:HIGH (-5:15)"), "\(result.stderr)")
    }

    @Test func aMissingEnhancedFolderIsOneError() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.mixSplitCorpus(count: 4)
        let result = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--enhanced", folder.path("nowhere"),
                                          "--metrics", "snr", "--no-catalog"])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && result.stderr.contains("nowhere") && result.stderr.contains("no such folder"), "\(result.stderr)")
    }

    @Test func aSplitThatDoesNotExistListsThoseThatDo() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.mixSplitCorpus(count: 4)
        let commands: [[String]] = [
            ["score", "--corpus", folder.path("corpus"), "--split", "dev", "--metrics", "snr", "--no-catalog"],
            ["enhance", "--method", "wiener", "--corpus", folder.path("corpus"), "--split", "dev", "--out", folder.path("e"),
             "--no-catalog"],
            ["features", "--corpus", folder.path("corpus"), "--split", "dev", "--out", folder.path("f.h5"), "--no-catalog"],
        ]
        for arguments in commands {
            let result = try SEKitBinary.run(arguments)
            #expect(result.status != 0 && result.stderr.contains("no clips in split 'dev' (its splits: test, train)"),
                    "\(arguments[0]): \(result.stderr)")
        }
    }

    @Test func aFrameTooShortNamesTheFrame() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.writeWAV("in/a.wav", frames: 16_000)
        let result = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("in"), "--out", folder.path("out"),
                                          "--frame-seconds", "0.0001", "--leading-seconds", "0.25", "--no-catalog"])
        #expect(result.status != 0 && result.stderr.contains("frame-seconds") && result.stderr.contains("shorter than 8 samples")
                && !result.stderr.contains("unsupported sample rate") && !result.stderr.contains("failed:"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")), "refused before anything is written")
    }

    @Test func anUnreadableSourceIsNamedOnce() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for i in 0..<2 { try folder.writeWAV("speech/u\(i).wav", frames: 16_000, seed: i) }
        try Data("RIFF but not audio".utf8).write(to: folder.url.appendingPathComponent("speech/junk.wav"))
        try folder.writeWAV("noise/n.wav", frames: 24_000, seed: 9)
        let result = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "2",
                                          "--seconds", "0.5", "--out", folder.path("corpus"), "--no-catalog"])
        let junk = folder.path("speech/junk.wav")
        #expect(result.status == 0 && result.stderr.contains(junk), "\(result.stderr)")
        #expect(!result.stderr.contains("\(junk): \(junk)"), "\(result.stderr)")
    }

    @Test func aLongInputNameIsEnhanced() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let name = String(repeating: "x", count: 240) + ".wav"
        try folder.writeWAV("in/" + name, frames: 16_000)
        let result = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("in"), "--out", folder.path("out"),
                                          "--no-catalog"])
        #expect(result.status == 0 && FileManager.default.fileExists(atPath: folder.path("out/" + name)), "\(result.stderr)")
    }
}
