import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The output folder of a mix: never inside an input, never holding inputs, never a folder that
/// sekit mix did not make (unless asked to overwrite, and then only its own outputs go).
@Suite struct MixOutputFolderTests {
    var options: MixOptions {
        var o = MixOptions()
        o.count = 2; o.seconds = 0.5
        return o
    }

    @Test func anOutputInsideAnInputFolderIsRefused() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let inputs = try GeneratedSources.mixInputs(in: folder, speech: ["a.wav", "b.wav"])
        #expect(throws: MixError.self) { try MixRun.prepare(options: options, inputs: inputs, output: folder.file("speech/out"), jobs: 1) }
        do { _ = try MixRun.prepare(options: options, inputs: inputs, output: folder.file("speech/out"), jobs: 1) } catch {
            #expect("\(error)".contains("is inside the speech input"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("speech/out").path), "nothing is created")
    }

    @Test func inputsInsideTheOutputFolderAreRefused() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var inputs = try GeneratedSources.mixInputs(in: folder, speech: ["a.wav", "b.wav"])
        // A first mix, then a second that takes the first one's stems as noise, writing beside them.
        let first = folder.file("corpus")
        _ = try MixRun.prepare(options: options, inputs: inputs, output: first, jobs: 1).run()
        inputs.noise = [first.appendingPathComponent("noise").path]
        #expect(throws: MixError.self) { try MixRun.prepare(options: options, inputs: inputs, output: first, jobs: 1, overwrite: true) }
    }

    @Test func aForeignNonEmptyFolderIsRefusedAndOverwriteRemovesOnlyMixOutputs() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let inputs = try GeneratedSources.mixInputs(in: folder, speech: ["a.wav", "b.wav"])
        let out = folder.file("out")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("noisy"), withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: out.appendingPathComponent("manifest.jsonl"))
        try Data("mine".utf8).write(to: out.appendingPathComponent("noisy/s0-0000001.wav"))
        try Data("notes".utf8).write(to: out.appendingPathComponent("notes.txt"))
        do {
            _ = try MixRun.prepare(options: options, inputs: inputs, output: out, jobs: 1)
            Issue.record("a folder sekit mix did not make was taken")
        } catch {
            #expect("\(error)".contains("holds no mix.json"), "\(error)")
        }
        #expect(try String(contentsOf: out.appendingPathComponent("noisy/s0-0000001.wav"), encoding: .utf8) == "mine")
        let result = try MixRun.prepare(options: options, inputs: inputs, output: out, jobs: 1, overwrite: true).run()
        #expect(result.written == 2)
        #expect(try String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8) == "notes", "other files stay")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("noisy").path).sorted()
                == ["s0-0000000.wav", "s0-0000001.wav"])
        // Hidden files alone do not make a folder foreign.
        let hidden = folder.file("hidden")
        try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
        try Data().write(to: hidden.appendingPathComponent(".DS_Store"))
        #expect(try MixRun.prepare(options: options, inputs: inputs, output: hidden, jobs: 1).run().written == 2)
    }

    /// A mix killed inside the atomic write of mix.json or of its manifest leaves a temporary
    /// file; the next run of the same mix removes it.
    @Test func temporariesOfAKilledMixAreRemovedByTheNextRun() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let inputs = try GeneratedSources.mixInputs(in: folder, speech: ["a.wav", "b.wav"])
        let out = folder.file("out")
        _ = try MixRun.prepare(options: options, inputs: inputs, output: out, jobs: 1).run()
        let stale = [".mix.json.tmp-4194301-1", ".manifest.jsonl.tmp-4194301-152"]
        for name in stale { try Data("torn".utf8).write(to: out.appendingPathComponent(name)) }
        let again = try MixRun.prepare(options: options, inputs: inputs, output: out, jobs: 1).run()
        #expect(again.resumed == 2)
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.contains(".tmp-") }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
