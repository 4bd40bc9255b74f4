import Foundation
import Testing

/// `sekit score` end to end: pairing by name, failures reported and counted, exit status,
/// `--align trim`, `--format json` and `--per-clip` CSV.
@Suite struct ScoreCommandTests {
    /// reference/{a,sub/b}.wav and enhanced/ with the same names (enhanced/a.wav identical to its
    /// reference, enhanced/sub/b.wav different), plus enhanced/extra.wav with no reference.
    func makePairs(_ folder: CatalogCLIFolder, missing: Bool = false) throws {
        try folder.writeWAV("reference/a.wav", frames: 4000, seed: 1)
        try folder.writeWAV("reference/sub/b.wav", frames: 4000, seed: 2)
        try folder.writeWAV("enhanced/a.wav", frames: 4000, seed: 1)
        if !missing { try folder.writeWAV("enhanced/sub/b.wav", frames: 4000, seed: 5) }
        try folder.writeWAV("enhanced/extra.wav", frames: 4000, seed: 3)
    }

    func score(_ folder: CatalogCLIFolder, _ extra: [String]) throws -> SEKitBinary.Result {
        // Any catalogue the command records into stays in the test's folder.
        try SEKitBinary.run(["score", "--reference", folder.path("reference"), "--enhanced", folder.path("enhanced"),
                             "--metrics", "snr,segsnr", "--jobs", "1"] + extra,
                            environment: ["SEKIT_CATALOG": folder.path("catalog.sqlite")], currentDirectory: folder.url)
    }

    func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(text.prefix(200))")
    }

    func clips(_ document: [String: Any]) throws -> [String: [String: Any]] {
        let list = try #require(document["clips"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["clip_id"] as? String ?? "?", $0) })
    }

    @Test func helpNamesTheFlags() throws {
        let help = try SEKitBinary.run(["score", "--help"])
        #expect(help.status == 0)
        for flag in ["--reference", "--enhanced", "--noisy", "--corpus", "--metrics", "--align", "--format", "--per-clip",
                     "--allow-failures", "--jobs"] {
            #expect(help.stdout.contains(flag), "score --help lacks \(flag)")
        }
    }

    @Test func pairsFilesByRelativePath() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try makePairs(folder)
        let result = try score(folder, ["--format", "json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let byID = try clips(try json(result.stdout))
        #expect(Set(byID.keys) == ["a.wav", "sub/b.wav"], "one clip per reference; enhanced/extra.wav has none")
        let a = try #require(byID["a.wav"]?["metrics"] as? [String: Any])
        let b = try #require(byID["sub/b.wav"]?["metrics"] as? [String: Any])
        // a.wav was paired with its identical copy (segSNR at its 35 dB ceiling), sub/b.wav with the other file.
        #expect(a["segsnr"] as? Double == 35)
        let bSegSNR = try #require(b["segsnr"] as? Double)
        #expect(bSegSNR < 35)
        #expect((byID["sub/b.wav"]?["enhanced"] as? String)?.hasSuffix("enhanced/sub/b.wav") == true)
    }

    @Test func missingEnhancedFileIsReportedCountedAndFailsTheRun() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try makePairs(folder, missing: true)
        let failing = try score(folder, ["--format", "json"])
        #expect(failing.status != 0)
        #expect(failing.stderr.contains("1 of 2 clips could not be scored"), "stderr: \(failing.stderr)")
        let document = try json(failing.stdout)
        #expect(document["failed"] as? Int == 1)
        let byID = try clips(document)
        #expect(byID.count == 2, "the failed clip is listed, not dropped")
        let error = try #require(byID["sub/b.wav"]?["error"] as? String)
        #expect(error.contains("sub/b.wav"), "the error names the file: \(error)")
        #expect(byID["a.wav"]?["error"] == nil)

        let table = try score(folder, [])
        #expect(table.status != 0)
        #expect(table.stdout.contains("failed: 1"), "table: \(table.stdout)")
        #expect(table.stdout.contains("failed: sub/b.wav"), "table: \(table.stdout)")

        let allowed = try score(folder, ["--format", "json", "--allow-failures"])
        #expect(allowed.status == 0, "stderr: \(allowed.stderr)")
        #expect(try json(allowed.stdout)["failed"] as? Int == 1)
    }

    @Test func lengthMismatchFailsUnlessTrimmed() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.writeWAV("reference/a.wav", frames: 4000, seed: 1)
        try folder.writeWAV("enhanced/a.wav", frames: 3900, seed: 4)
        let strict = try score(folder, ["--format", "json"])
        #expect(strict.status != 0)
        let error = try #require(try clips(try json(strict.stdout))["a.wav"]?["error"] as? String)
        #expect(error.contains("align = trim"), "the error says how to fix it (the align parameter): \(error)")

        let trimmed = try score(folder, ["--format", "json", "--align", "trim"])
        #expect(trimmed.status == 0, "stderr: \(trimmed.stderr)")
        let clip = try #require(try clips(try json(trimmed.stdout))["a.wav"])
        #expect(clip["error"] == nil)
        #expect((clip["metrics"] as? [String: Any])?["snr"] is Double)

        let bad = try score(folder, ["--align", "pad"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--align"))
    }

    @Test func jsonHasClipsAndSummary() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try makePairs(folder)
        let document = try json(try score(folder, ["--format", "json"]).stdout)
        #expect(document["metrics"] as? [String] == ["snr", "segsnr"])
        let clipList = try #require(document["clips"] as? [[String: Any]])
        #expect(clipList.count == 2)
        for clip in clipList {
            for key in ["clip_id", "reference", "enhanced", "metrics"] { #expect(clip[key] != nil, "clip lacks \(key)") }
        }
        let summary = try #require(document["summary"] as? [[String: Any]])
        let snrAll = try #require(summary.first { $0["metric"] as? String == "segsnr" && $0["subset"] as? String == "all" })
        #expect(snrAll["n"] as? Int == 2)
        for key in ["mean", "std", "ci95_low", "ci95_high"] { #expect(snrAll[key] != nil, "summary lacks \(key)") }
        let segsnrs = clipList.compactMap { ($0["metrics"] as? [String: Any])?["segsnr"] as? Double }
        let mean = try #require(snrAll["mean"] as? Double)
        #expect(abs(mean - segsnrs.reduce(0, +) / Double(segsnrs.count)) < 1e-9)
    }

    @Test func perClipCSVHasAHeaderAndOneRowPerClip() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try makePairs(folder, missing: true)
        let csvPath = folder.path("scores/per_clip.csv")
        try FileManager.default.createDirectory(atPath: folder.path("scores"), withIntermediateDirectories: true)
        let result = try score(folder, ["--per-clip", csvPath, "--allow-failures"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "clip_id,split,snr_db,snr,snr_noisy,snr_improvement,segsnr,segsnr_noisy,segsnr_improvement,error")
        #expect(lines.count == 3)
        let a = try #require(lines.first { $0.hasPrefix("a.wav,") })
        #expect(a.hasSuffix(","), "a.wav scored: empty error cell")
        #expect(a.split(separator: ",", omittingEmptySubsequences: false).count == 10)
        let b = try #require(lines.first { $0.hasPrefix("sub/b.wav,") })
        #expect(!b.hasSuffix(","), "sub/b.wav failed: its error is in the last cell")
    }
}
