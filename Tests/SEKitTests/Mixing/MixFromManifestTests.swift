import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal
import SEKitTestSupport

/// `sekit mix --from-manifest` in the library: a corpus re-rendered from its manifest is
/// byte-identical to the original (plain, and the URGENT recipe with RIRs, wind and degradations;
/// whatever `--jobs`), an edited manifest renders what it says (an SNR, a codec bitrate), and a
/// missing or changed source is a named error before any clip is written.
@Suite(.needsFixtures)
struct MixFromManifestTests {
    /// Options and inputs of a short mix of the fixtures, with `overrides`.
    func settings(_ overrides: [String: [String]], recipe: URL? = nil, speech: String? = nil,
                  noise: String? = nil) throws -> (MixOptions, MixInputs) {
        var values = try recipe.map { try MixSettings.loadRecipe($0) } ?? [:]
        values.merge([
            "count": ["6"], "seconds": ["1.5"], "seed": ["3"],
            "speech": [speech ?? Fixtures.url("speech").path], "noise": [noise ?? Fixtures.url("noise").path],
        ]) { $1 }
        values.merge(overrides) { $1 }
        return try MixSettings.parse(values)
    }

    @discardableResult
    func mix(_ settings: (MixOptions, MixInputs), into folder: URL, jobs: Int = 1) throws -> MixResult {
        try MixedCorpus.mix(settings, into: folder, jobs: jobs)
    }

    @discardableResult
    func rerender(_ manifest: URL, into folder: URL, jobs: Int = 1, notes: inout [String]) throws -> MixResult {
        var collected: [String] = []
        let result = try MixRun.prepare(fromManifest: manifest, output: folder, jobs: jobs, note: { collected.append($0) }).run()
        notes = collected
        #expect(result.failures.isEmpty, "\(result.failures)")
        return result
    }

    /// Every stem file of corpus `a` has the same bytes in corpus `b` (and `b` has no others).
    func expectSameStems(_ a: URL, _ b: URL, _ comment: Comment? = nil) throws {
        let fm = FileManager.default
        for stem in ["noisy", "clean", "noise"] {
            let names = try fm.contentsOfDirectory(atPath: a.appendingPathComponent(stem).path).sorted()
            #expect(!names.isEmpty)
            #expect(try fm.contentsOfDirectory(atPath: b.appendingPathComponent(stem).path).sorted() == names)
            for name in names {
                let path = "\(stem)/\(name)"
                let original = fm.contents(atPath: a.appendingPathComponent(path).path)
                #expect(original == fm.contents(atPath: b.appendingPathComponent(path).path), "\(path) \(comment.map { "\($0)" } ?? "")")
            }
        }
    }

    /// The manifest at `url` with `edit` applied to each record (as JSON objects), written back.
    func editManifest(_ url: URL, _ edit: (inout [String: Any]) -> Void) throws {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        var out = ""
        for line in lines {
            var object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            edit(&object)
            out += String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        try out.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func aPlainMixRerendersByteIdenticallyWhateverTheJobs() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let original = folder.file("original")
        try mix(try settings(["noises-per-clip": ["1:2"], "lowpass-hz": ["2000:6000"]]), into: original)
        var notes: [String] = []
        for jobs in [1, 2] {
            let copy = folder.file("copy-\(jobs)")
            try rerender(original.appendingPathComponent("manifest.jsonl"), into: copy, jobs: jobs, notes: &notes)
            try expectSameStems(original, copy, "--jobs \(jobs)")
            #expect(FileManager.default.contents(atPath: original.appendingPathComponent("manifest.jsonl").path)
                    == FileManager.default.contents(atPath: copy.appendingPathComponent("manifest.jsonl").path))
            #expect(notes.isEmpty, "every source verified: \(notes)")
        }
        let spec = try JSONDecoder().decode(MixSpecFile.Spec.self, from: Data(contentsOf: folder.file("copy-1/mix.json")))
        #expect(spec.fromManifest?.path == original.appendingPathComponent("manifest.jsonl").path)
        #expect(spec.fromManifest?.sha256 == (try SHA256.hex(ofFileAt: original.appendingPathComponent("manifest.jsonl"))))
        #expect(spec.sources?.allSatisfy { $0.sha256?.count == 64 } == true)
    }

    @Test func theURGENTRecipeWithRIRsWindAndDegradationsRerendersByteIdentically() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let original = folder.file("original")
        let recipe = TestProject.root.appendingPathComponent("datasets/recipes/urgent2025.yaml")
        let result = try mix(try settings([
            "count": ["12"], "seed": ["2025"],
            "rir": [Fixtures.url("rir/small_room.wav").path, Fixtures.url("rir/rir_clap.wav").path],
        ], recipe: recipe), into: original, jobs: 2)
        // The corpus exercises what re-rendering must reproduce.
        #expect(result.records.contains { $0.wind != nil })
        #expect(result.records.contains { $0.rir != nil })
        let stages = Set(result.records.flatMap { ($0.degradations ?? []).map(\.stage) })
        #expect(stages == Set(Degradation.Stage.allCases))
        var notes: [String] = []
        let copy = folder.file("copy")
        try rerender(original.appendingPathComponent("manifest.jsonl"), into: copy, jobs: 2, notes: &notes)
        try expectSameStems(original, copy)
        #expect(FileManager.default.contents(atPath: original.appendingPathComponent("manifest.jsonl").path)
                == FileManager.default.contents(atPath: copy.appendingPathComponent("manifest.jsonl").path))
    }

    @Test func anEditedSNRRendersExactlyThatSNR() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try mix(try settings(["snr-db": ["5"]]), into: folder.file("at5"))
        try mix(try settings(["snr-db": ["12.5"]]), into: folder.file("at12.5"))
        let manifest = folder.file("at5/manifest.jsonl")
        try editManifest(manifest) { $0["snr_db_requested"] = 12.5 }
        var notes: [String] = []
        let result = try rerender(manifest, into: folder.file("edited"), notes: &notes)
        // Single-valued lists draw alike: the edited 5 dB corpus is the 12.5 dB one.
        try expectSameStems(folder.file("at12.5"), folder.file("edited"))
        for record in result.records {
            #expect(record.snrDBRequested == 12.5)
            // Measured on the written stems (dry clips: the clean stem is the speech in the mixture).
            let clean = try AudioFile.read(at: folder.file("edited").appendingPathComponent(record.clean)).samples
            let noise = try AudioFile.read(at: folder.file("edited").appendingPathComponent(record.noise)).samples
            let measured = 10 * log10(Levels.meanSquare(clean) / Levels.meanSquare(noise))
            #expect(abs(measured - 12.5) < 0.01, "\(record.clipID): \(measured) dB")
            #expect(abs(record.snrDBRealised - measured) < 1e-6)
        }
    }

    @Test func anEditedCodecBitrateRendersExactlyThatBitrate() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try mix(try settings(["codec": ["mp3"], "mp3-bitrate-kbps": ["32"]]), into: folder.file("at32"))
        try mix(try settings(["codec": ["mp3"], "mp3-bitrate-kbps": ["128"]]), into: folder.file("at128"))
        let manifest = folder.file("at32/manifest.jsonl")
        try editManifest(manifest) { record in
            record["degradations"] = (record["degradations"] as! [[String: Any]]).map { entry in
                var entry = entry
                if entry["codec"] as? String == "mp3" { entry["mp3_bitrate_kbps"] = 128 }
                return entry
            }
        }
        var notes: [String] = []
        let result = try rerender(manifest, into: folder.file("edited"), notes: &notes)
        try expectSameStems(folder.file("at128"), folder.file("edited"))
        let bitrates = result.records.flatMap { ($0.degradations ?? []).compactMap(\.mp3BitrateKbps) }
        #expect(bitrates.count == result.records.count && bitrates.allSatisfy { $0 == 128 })
        // And it is not the 32 kbps corpus.
        let original = FileManager.default.contents(atPath: folder.path("at32/" + result.records[0].noisy))
        #expect(original != FileManager.default.contents(atPath: folder.path("edited/" + result.records[0].noisy)))
    }

    /// A mix of copies of the fixtures (so that one can be removed or changed), and its manifest.
    func mixOfCopies(_ folder: TemporaryFolder) throws -> (manifest: URL, result: MixResult) {
        let fm = FileManager.default
        for kind in ["speech", "noise"] {
            try fm.copyItem(at: Fixtures.url(kind), to: folder.file("in-" + kind))
        }
        let copies = try settings([:], speech: folder.path("in-speech"), noise: folder.path("in-noise"))
        let result = try mix(copies, into: folder.file("original"))
        return (folder.file("original/manifest.jsonl"), result)
    }

    @Test func aMissingSourceIsANamedErrorAndNoClipIsWritten() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let (manifest, result) = try mixOfCopies(folder)
        let gone = result.records[2].noiseSources[0].path
        try FileManager.default.removeItem(atPath: gone)
        let firstUse = result.records.firstIndex { $0.noiseSources.contains { $0.path == gone } }!
        #expect(throws: MixError.missingSource(path: gone, kind: "noise", manifest: manifest.path, line: firstUse + 1,
                                               clipID: result.records[firstUse].clipID)) {
            try MixRun.prepare(fromManifest: manifest, output: folder.file("copy"), jobs: 1).run()
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("copy")))
    }

    @Test func aChangedSourceIsANamedErrorWithBothHashes() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let (manifest, result) = try mixOfCopies(folder)
        let changed = result.records[0].speechSources[0].path
        let expected = try SHA256.hex(ofFileAt: URL(fileURLWithPath: changed))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: changed))
        bytes[bytes.count - 1] ^= 1  // one sample's lowest bit: the same length, another recording
        try bytes.write(to: URL(fileURLWithPath: changed))
        let found = try SHA256.hex(ofFileAt: URL(fileURLWithPath: changed))
        #expect(throws: MixError.changedSource(path: changed, kind: "speech", expectedSHA256: expected, foundSHA256: found)) {
            try MixRun.prepare(fromManifest: manifest, output: folder.file("copy"), jobs: 1).run()
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("copy")))
    }

    @Test func aManifestOfAMixWithoutHashesRendersWithAWarning() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let original = folder.file("original")
        try mix(try settings([:]), into: original)
        // mix.json as mixes wrote it before sources were hashed.
        let specURL = original.appendingPathComponent("mix.json")
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: specURL)) as! [String: Any]
        object.removeValue(forKey: "sources")
        try JSONSerialization.data(withJSONObject: object).write(to: specURL)
        var notes: [String] = []
        try rerender(original.appendingPathComponent("manifest.jsonl"), into: folder.file("copy"), notes: &notes)
        try expectSameStems(original, folder.file("copy"))
        #expect(notes.count == 1 && notes[0].contains("not verified"), "\(notes)")
    }

    @Test func recordsTheMixDoesNotAllowAreNamedByLine() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try mix(try settings([:]), into: folder.file("original"))
        let manifest = folder.file("original/manifest.jsonl")
        try editManifest(manifest) { record in
            if record["index"] as? Int == 1 { record["sample_rate"] = 8000 }
        }
        do {
            _ = try MixRun.prepare(fromManifest: manifest, output: folder.file("copy"), jobs: 1).run()
            Issue.record("an 8 kHz record in a 16 kHz mix was rendered")
        } catch let error as MixError {
            guard case .manifestClip(_, let line, let clipID, let reason) = error else { Issue.record("\(error)"); return }
            #expect(line == 2 && clipID == "s3-0000001" && reason.contains("sample_rate 8000"))
        }
        // Rendered into its own corpus folder, a manifest would be written over.
        #expect(throws: MixError.invalidOption(name: "out", value: folder.path("original"),
                                               reason: "holds the manifest \(manifest.path); render it into another folder")) {
            try MixRun.prepare(fromManifest: manifest, output: folder.file("original"), jobs: 1, overwrite: true)
        }
        try FileManager.default.removeItem(at: folder.file("original/mix.json"))
        #expect(throws: MixError.self) { try MixRun.prepare(fromManifest: manifest, output: folder.file("copy"), jobs: 1) }
    }

    /// Issue 40 item 10: an edited speech piece longer than the clip was cut silently while the record kept
    /// its length, and an edited num_samples rendered that many samples while the record kept the old
    /// count. Both are refused by name.
    @Test func editsTheRendererCannotHonourAreRefusedByName() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try mix(try settings([:]), into: folder.file("original"))
        let original = folder.file("original/manifest.jsonl")
        let text = try String(contentsOf: original, encoding: .utf8)
        for (name, edit) in [("length", { (record: inout [String: Any]) in
                                  var pieces = record["speech_sources"] as! [[String: Any]]
                                  pieces[0]["length"] = (record["num_samples"] as! Int) + 1000
                                  record["speech_sources"] = pieces }),
                             ("samples", { (record: inout [String: Any]) in record["num_samples"] = 5 })] {
            let copy = folder.file("\(name).jsonl")
            try text.write(to: copy, atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(at: folder.file("original/mix.json"), to: folder.file("mix.json"))
            defer { try? FileManager.default.removeItem(at: folder.file("mix.json")) }
            try editManifest(copy) { record in if record["index"] as? Int == 0 { edit(&record) } }
            do {
                _ = try MixRun.prepare(fromManifest: copy, output: folder.file("out-\(name)"), jobs: 1).run()
                Issue.record("\(name): the edited record was rendered")
            } catch let error as MixError {
                guard case .manifestClip(_, let line, _, let reason) = error else { Issue.record("\(name): \(error)"); continue }
                #expect(line == 1 && reason.contains("do not fit a clip of"), "\(name): \(reason)")
            }
        }
    }
}
