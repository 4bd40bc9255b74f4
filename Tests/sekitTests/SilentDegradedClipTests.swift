import Foundation
import Testing

/// A valid degradation that leaves a clip's noisy stem all zeros (`--packet-loss 1`, a clipping
/// threshold below the 16-bit step) is written and recorded with its level as null in the
/// manifest and the catalogue; it never stops the mix (issue 26, item 2).
@Suite(.serialized,
        .needsFixtures, .enabled(if: TestEnvironment.sqliteAvailable, "needs sqlite3"))
struct SilentDegradedClipTests {
    struct Record: Decodable { let clip_id: String; let level_dbfs_realised: Double? }

    /// Mixes `count` clips with `flags` and returns the manifest's lines, parsed and as text.
    func mix(_ folder: CatalogCLIFolder, count: Int, seconds: Double = 0.5,
             _ flags: [String]) throws -> (records: [Record], lines: [String]) {
        let f = GoldenCorpus.fixtures.path
        let result = try SEKitBinary.run(["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--count", "\(count)",
                                          "--seconds", "\(seconds)", "--seed", "3", "--jobs", "2", "--out", folder.path("corpus"),
                                          "--catalog", folder.path("catalog.sqlite")] + flags)
        #expect(result.status == 0, "\(flags): \(result.stderr)")
        let text = try String(contentsOfFile: folder.path("corpus/manifest.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        return (try lines.map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }, lines)
    }

    @Test func packetLossOfEveryPacketWritesEveryClipWithANullLevel() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let (records, lines) = try mix(folder, count: 6, ["--packet-loss", "1"])
        #expect(records.count == 6)
        #expect(records.allSatisfy { $0.level_dbfs_realised == nil })
        #expect(lines.allSatisfy { $0.contains("\"level_dbfs_realised\":null") })
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("corpus/noisy"))
        #expect(files.filter { $0.hasSuffix(".wav") }.count == 6)
        let catalog = folder.path("catalog.sqlite")
        #expect(try folder.sqlite(catalog, "select count(*) from clips where level_dbfs is null") == "6")
        #expect(try folder.sqlite(catalog, "select status from runs where kind = 'mix'") == "finished")
    }

    @Test func aRangeOfLossesMakesEveryClipSomeWithoutALevel() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let (records, _) = try mix(folder, count: 40, seconds: 0.2, ["--packet-loss", "0:1"])
        #expect(records.count == 40)
        let silent = records.filter { $0.level_dbfs_realised == nil }.count
        #expect(silent > 0 && silent < 40, "\(silent) of 40 clips without a level")
        #expect(try folder.sqlite(folder.path("catalog.sqlite"), "select count(*) from clips where level_dbfs is null") == "\(silent)")
    }

    @Test func aClippingThresholdBelowEverySampleInFloat32WritesTheClips() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let (records, _) = try mix(folder, count: 3, ["--clip-distortion", "1e-300", "--format", "float32"])
        #expect(records.count == 3)
        #expect(try folder.sqlite(folder.path("catalog.sqlite"), "select status from runs where kind = 'mix'") == "finished")
    }

    @Test func silencedClipsFailCountsThemInstead() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let f = GoldenCorpus.fixtures.path
        let result = try SEKitBinary.run(["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--count", "3", "--seconds", "0.5",
                                          "--packet-loss", "1", "--silenced-clips", "fail", "--out", folder.path("corpus"),
                                          "--catalog", folder.path("catalog.sqlite")])
        #expect(result.status == 1 && result.stdout.contains("failed clip 0: the degradations (packet-loss) leave the noisy input silent"),
                "\(result.stdout)")
        let catalog = folder.path("catalog.sqlite")
        #expect(try folder.sqlite(catalog, "select status from runs where kind = 'mix'") == "finished")
        #expect(try folder.sqlite(catalog, "select value_text from params where key = 'clips_failed'") == "3")
        let useless = try SEKitBinary.run(["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--count", "3",
                                           "--silenced-clips", "fail", "--out", folder.path("other"), "--no-catalog"])
        #expect(useless.status != 0 && useless.stderr.contains("--silenced-clips") && useless.stderr.contains("has no effect"),
                "\(useless.stderr)")
    }
}
