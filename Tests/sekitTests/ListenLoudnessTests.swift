import Foundation
import SEKit
import Testing

/// `sekit listen make --loudness-lufs`: every audio file of a test (conditions, hidden reference,
/// anchors, references) measured back from disk at the target's integrated loudness (ITU-R BS.1770-4,
/// libebur128), the gains recorded in test.json, clipping after a gain reported; without the option
/// test.json carries none of it.
@Suite(.serialized, .needsFixtures)
struct ListenLoudnessTests {
    func manifest(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/test.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every (file, gain, clipped samples) of the test: the references and the stimuli.
    func files(_ manifest: [String: Any]) -> [(file: String, gainDB: Double?, clipped: Int?)] {
        var found: [String: (Double?, Int?)] = [:]
        for trial in manifest["trials"] as? [[String: Any]] ?? [] {
            let audio = (trial["stimuli"] as? [[String: Any]] ?? []) + [trial["reference"] as? [String: Any]].compactMap { $0 }
            for a in audio { found[a["file"] as! String] = (a["gainDB"] as? Double, a["clippedSamples"] as? Int) }
        }
        return found.keys.sorted().map { ($0, found[$0]!.0, found[$0]!.1) }
    }

    @Test func everyStimulusOfAPageIsAtTheTarget() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        for (kind, out) in [("mushra", "mushra-26"), ("ccr", "ccr-26")] {
            let made = try SEKitBinary.run([
                "listen", "make", "--runs", "logmmse,oracle-irm", "--test", kind, "--clips", "3", "--out", folder.path(out),
                "--loudness-lufs", "-26", "--catalog", catalog,
            ])
            #expect(made.status == 0, "\(made.stderr)")
            #expect(!made.stderr.contains("clipped"), "\(made.stderr)")
            let test = try manifest(folder.path(out))
            #expect(test["loudnessLUFS"] as? Double == -26)
            let audio = files(test)
            // MUSHRA: 3 clips × (2 runs + 2 anchors + the hidden reference, which is the reference file); CCR: 3 noisy inputs
            // + 3 × 2 runs + the gold and trapping trials' files.
            #expect(audio.count == (kind == "mushra" ? 15 : 9), "\(audio.map(\.file))")
            for (file, gainDB, clipped) in audio {
                let samples = try AudioFile.read(at: URL(fileURLWithPath: folder.path("\(out)/\(file)")))
                let lufs = try Levels.loudnessLUFS(samples.samples, sampleRate: samples.sampleRate)
                #expect(abs(lufs + 26) < 0.1, "\(kind) \(file): \(lufs) LUFS")
                #expect(gainDB?.isFinite == true && clipped == nil, "\(kind) \(file)")
            }
        }
        // Without the option: the runs' levels, and no trace of equalisation in test.json.
        let plain = try SEKitBinary.run([
            "listen", "make", "--runs", "logmmse,oracle-irm", "--test", "mushra", "--clips", "3", "--out", folder.path("plain"),
            "--catalog", catalog,
        ])
        #expect(plain.status == 0, "\(plain.stderr)")
        let text = try String(contentsOfFile: folder.path("plain/test.json"), encoding: .utf8)
        #expect(!text.contains("loudnessLUFS") && !text.contains("gainDB") && !text.contains("clippedSamples"))
        let levels = try files(try manifest(folder.path("plain"))).map { entry in
            let samples = try AudioFile.read(at: URL(fileURLWithPath: folder.path("plain/\(entry.file)")))
            return try Levels.loudnessLUFS(samples.samples, sampleRate: samples.sampleRate)
        }
        #expect((levels.max()! - levels.min()!) > 1, "the runs' own levels differ: \(levels)")
    }

    @Test func clippingAfterTheGainIsReportedAndABadTargetRefused() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        // Speech at −3 LUFS peaks far beyond full scale.
        let loud = try SEKitBinary.run([
            "listen", "make", "--runs", "logmmse", "--test", "acr", "--clips", "2", "--out", folder.path("loud"),
            "--loudness-lufs", "-3", "--catalog", catalog,
        ])
        #expect(loud.status == 0, "\(loud.stderr)")
        let clipped = files(try manifest(folder.path("loud"))).filter { ($0.clipped ?? 0) > 0 }
        #expect(!clipped.isEmpty)
        for entry in clipped {
            #expect(loud.stderr.contains("warning: \(entry.file) (clip ") && loud.stderr.contains("clipped \(entry.clipped!) samples"),
                    "\(loud.stderr)")
        }
        for bad in ["3", "nan"] {
            let refused = try SEKitBinary.run([
                "listen", "make", "--runs", "logmmse", "--test", "acr", "--clips", "2", "--out", folder.path("bad-\(bad)"),
                "--loudness-lufs", bad, "--catalog", catalog,
            ])
            #expect(refused.status != 0 && refused.stderr.contains("--loudness-lufs"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("bad-\(bad)/test.json")))
        }
    }
}
