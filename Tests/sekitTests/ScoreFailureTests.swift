import Foundation
import Testing

/// A metric that has no value for one clip is an error for that clip and metric only: the clip's
/// other metrics, every other clip, the per-clip CSV and the catalogue rows are all kept.
@Suite struct ScoreFailureTests {
    func folders() throws -> CatalogCLIFolder {
        let folder = try CatalogCLIFolder()
        for name in ["a", "b"] {
            try folder.writeWAV("ref/\(name).wav", frames: 16_000, seed: name == "a" ? 1 : 2)
            try folder.writeWAV("enh/\(name).wav", frames: 16_000, seed: 7)
        }
        // An all-zero enhanced clip: SI-SDR is 0/0.
        var data = try Data(contentsOf: folder.url.appendingPathComponent("enh/b.wav"))
        data.replaceSubrange(44..<data.count, with: [UInt8](repeating: 0, count: data.count - 44))
        try data.write(to: folder.url.appendingPathComponent("enh/b.wav"))
        return folder
    }

    @Test(.enabled(if: MixCommandTests.sqliteAvailable, "needs /usr/bin/sqlite3"))
    func aSilentOutputFailsOnlyTheMetricsThatHaveNoValue() throws {
        let folder = try folders(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let result = try SEKitBinary.run(["score", "--reference", folder.path("ref"), "--enhanced", folder.path("enh"),
                                          "--metrics", "snr,sisdr,segsnr", "--format", "json", "--per-clip", folder.path("clips.csv"),
                                          "--catalog", catalog])
        #expect(result.status == 1, "a value that could not be computed makes the exit status 1")
        #expect(result.stderr.contains("1 metric values of 1 clips could not be computed"), "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["failed"] as? Int == 0 && document["failed_values"] as? Int == 1)
        let clips = try #require(document["clips"] as? [[String: Any]])
        let b = try #require(clips.first { $0["clip_id"] as? String == "b.wav" })
        let values = try #require(b["metrics"] as? [String: Double])
        #expect(values["snr"] != nil && values["segsnr"] != nil && values["sisdr"] == nil)
        let reasons = try #require(b["metric_errors"] as? [String: String])
        #expect(reasons["sisdr"]?.contains("the processed signal is silent") == true)
        let a = try #require(clips.first { $0["clip_id"] as? String == "a.wav" })
        #expect((a["metrics"] as? [String: Double])?.count == 3 && a["metric_errors"] == nil)
        // The summary covers the values that exist: two SNRs, one SI-SDR, never NaN.
        let summary = try #require(document["summary"] as? [[String: Any]])
        let n = Dictionary(summary.map { ($0["metric"] as! String, $0["n"] as! Int) }, uniquingKeysWith: { a, _ in a })
        #expect(n["snr"] == 2 && n["sisdr"] == 1)
        #expect(!result.stdout.contains("nan"))
        let csv = try String(contentsOfFile: folder.path("clips.csv"), encoding: .utf8)
        #expect(csv.contains("sisdr: sisdr: undefined for this pair: the processed signal is silent"), "\(csv)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_scores") == "6")
        #expect(try folder.sqlite(catalog, "SELECT metric || '|' || (value IS NULL) || '|' || (error IS NOT NULL) "
                                  + "FROM clip_scores WHERE clip_id = 'b.wav' ORDER BY metric")
                == "segsnr|0|0\nsisdr|1|1\nsnr|0|0")
        #expect(try folder.sqlite(catalog, "SELECT value_text FROM params WHERE key = 'values_failed'") == "1")
        #expect(try folder.sqlite(catalog, "SELECT status FROM runs") == "finished")

        let allowed = try SEKitBinary.run(["score", "--reference", folder.path("ref"), "--enhanced", folder.path("enh"),
                                           "--metrics", "snr,sisdr", "--allow-failures", "--no-catalog"])
        #expect(allowed.status == 0 && allowed.stdout.contains("values not computed: 1") && allowed.stdout.contains("not computed: b.wav"),
                "\(allowed.stdout)")
    }
}
