import Foundation
import Testing

/// A killed unsharded mix has no `manifest.jsonl` yet; its finished clips are still readable
/// (from the mix's journal), so `score` and `features` use them with `--allow-incomplete` and
/// refuse them without (issue 26, item 21). The mix is really killed (SIGKILL) mid-run.
@Suite(.serialized) struct KilledMixCorpusTests {
    @Test func aKilledMixIsScoredAndExportedWithAllowIncomplete() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        for i in 0..<4 { try folder.writeWAV("speech/u\(i).wav", frames: 16_000, seed: i) }
        try folder.writeWAV("noise/n.wav", frames: 24_000, seed: 9)
        let process = Process()
        process.executableURL = SEKitBinary.url
        process.arguments = ["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "3000",
                             "--seconds", "0.5", "--seed", "4", "--jobs", "1", "--out", folder.path("out"), "--no-catalog"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let journal = folder.url.appendingPathComponent("out/.sekit/journal.jsonl")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && process.isRunning {
            let lines = (FileManager.default.contents(atPath: journal.path) ?? Data()).filter { $0 == UInt8(ascii: "\n") }.count
            if lines >= 20 { break }
            usleep(2_000)
        }
        #expect(process.isRunning, "the mix finished before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/manifest.jsonl")))

        let refused = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr", "--no-catalog"])
        #expect(refused.status == 1 && refused.stderr.contains("missing") && refused.stderr.contains("--allow-incomplete"),
                "\(refused.stderr)")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr", "--allow-incomplete",
                                          "--format", "json", "--no-catalog"])
        #expect(scored.status == 0 && scored.stderr.contains("planned clips are missing"), "\(scored.stderr)")
        let exported = try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", folder.path("f.h5"),
                                            "--allow-incomplete", "--no-catalog"])
        #expect(exported.status == 0, "\(exported.stderr)")

        // The rerun resumes and then writes the whole manifest, which is read instead of the journal.
        let rerun = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "3000",
                                         "--seconds", "0.5", "--seed", "4", "--jobs", "2", "--out", folder.path("out"), "--no-catalog"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let whole = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr", "--no-catalog"])
        #expect(whole.status == 0, "\(whole.stderr)")
    }
}
