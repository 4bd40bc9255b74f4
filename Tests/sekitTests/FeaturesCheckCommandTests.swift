import Foundation
import Testing

/// `sekit features check` on a merged feature file whose shard is moved away: the mappings onto
/// it are named, exit 1; synthesize refuses the file instead of resynthesising zeros.
@Suite(.serialized, .needsFixtures)
struct FeaturesCheckCommandTests {
    @Test func aMergedFileWithAMissingShardIsNamedAndRefused() throws {
        let folder = try FeaturesShardCommandTests.corpus()
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 1...2 {
            let export = FeaturesShardCommandTests.features(["--out", "s\(index).h5", "--shard", "\(index)/2"])
            try FeaturesShardCommandTests.expectSuccess(export, in: folder)
        }
        try FeaturesShardCommandTests.expectSuccess(["features", "merge", "merged.h5", "s1.h5", "s2.h5"], in: folder)
        let sound = try FeaturesShardCommandTests.expectSuccess(["features", "check", "merged.h5"], in: folder)
        #expect(sound.stdout.contains("merged file: 6 virtual mappings onto 2 shard files"), "\(sound.stdout)")
        #expect(sound.stdout.hasSuffix("feature file is sound\n"), "\(sound.stdout)")

        try FileManager.default.moveItem(at: folder.appendingPathComponent("s2.h5"), to: folder.appendingPathComponent("aside.h5"))
        let shard = folder.appendingPathComponent("s2.h5").standardizedFileURL.path
        let missing = try SEKitBinary.run(["features", "check", "merged.h5"], currentDirectory: folder)
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stdout.contains("stream 'irm' rows ") && missing.stdout.contains(": shard \(shard): the shard file is missing"),
                "\(missing.stdout)")
        #expect(missing.stdout.contains("feature file needs attention: 3 mappings"), "\(missing.stdout)")
        let json = try SEKitBinary.run(["features", "check", "merged.h5", "--json"], currentDirectory: folder)
        #expect(json.status == 1 && json.stdout.contains("\"problem\" : \"the shard file is missing\""), "\(json.stdout)")

        let synthesized = try SEKitBinary.run(["synthesize", "--features", "merged.h5", "--dataset", "irm", "--out", "zeros",
                                               "--no-catalog"], currentDirectory: folder)
        #expect(synthesized.status != 0 && synthesized.stderr.contains("shard is missing or changed"), "\(synthesized.stderr)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("zeros").path)) ?? []
        #expect(!written.contains { $0.hasSuffix(".wav") }, "\(written)")
    }
}
