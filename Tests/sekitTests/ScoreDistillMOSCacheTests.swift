import Foundation
import Testing

/// Distill-MOS's cache (docs/scoring-and-metrics.md): the first `sekit score` exports the package's network
/// to ONNX under `$XDG_CACHE_HOME/sekit/distillmos/`, named by the weights' SHA-256, and keeps that SHA-256
/// under `sekit/sha256/`; later runs load the file as it is; a damaged file is exported again; and every
/// run gives the same value.
@Suite(.serialized, .needsFixtures, .enabled(if: PaperMetrics.pythonRequired, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct ScoreDistillMOSCacheTests {
    @Test func theExportIsMadeOnceCheckedAndRemadeWhenDamaged() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fm = FileManager.default
        try fm.createDirectory(at: folder.url.appendingPathComponent("enhanced"), withIntermediateDirectories: true)
        try fm.copyItem(at: GoldenCorpus.fixtures.appendingPathComponent("noisy/vctk_p287_002.wav"),
                        to: folder.url.appendingPathComponent("enhanced/a.wav"))
        let cache = folder.path("cache")
        func score() throws -> Double {
            let result = try SEKitBinary.run(["score", "--enhanced", folder.path("enhanced"), "--metrics", "distillmos",
                                              "--format", "json", "--no-catalog"], environment: ["XDG_CACHE_HOME": cache])
            #expect(result.status == 0, "\(result.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let clip = try #require((document["clips"] as? [[String: Any]])?.first)
            return try #require((clip["metrics"] as? [String: Any])?["distillmos"] as? Double, "\(clip)")
        }
        let first = try score()
        let exports = try fm.contentsOfDirectory(atPath: cache + "/sekit/distillmos").filter { $0.hasSuffix(".onnx") }
        #expect(exports.count == 1, "\(exports)")
        let name = try #require(exports.first)
        // The weights' SHA-256, as hashlib computes it from the installed package's file.
        let python = try #require(ProcessInfo.processInfo.environment["SEKIT_PYTHON"], "SEKIT_PYTHON is not set")
        let hashed = try SEKitBinary.run(["-c", """
            import hashlib, importlib.util, os
            folder = os.path.dirname(importlib.util.find_spec('distillmos').origin)
            print(hashlib.sha256(open(os.path.join(folder, 'weights', 'distill_mos_v7.pt'), 'rb').read()).hexdigest())
            """], executable: URL(fileURLWithPath: python))
        let digest = hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(digest.count == 64, "\(hashed.stderr)")
        #expect(name.hasPrefix("distill_mos-\(digest)-r1-torch"), "\(name)")
        let kept = try fm.contentsOfDirectory(atPath: cache + "/sekit/sha256")
        let digests = try kept.map { try String(contentsOfFile: cache + "/sekit/sha256/" + $0, encoding: .utf8) }
        #expect(digests == [digest + "\n"])

        let file = cache + "/sekit/distillmos/" + name
        let made = try #require(try fm.attributesOfItem(atPath: file)[.modificationDate] as? Date)
        let second = try score()
        let modified = try fm.attributesOfItem(atPath: file)[.modificationDate] as? Date
        #expect(second == first && modified == made, "loaded from the cache, not exported again")

        try Data("not a model".utf8).write(to: URL(fileURLWithPath: file))
        let third = try score()
        #expect(third == first, "\(third) vs \(first)")
        let remade = try fm.attributesOfItem(atPath: file)
        #expect((remade[.size] as? Int ?? 0) > 1_000_000 && remade[.modificationDate] as? Date != made, "exported again: \(remade)")
    }
}
