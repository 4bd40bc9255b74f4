import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// End-to-end mixes of real fixture speech and noise, checked from the written files.
@Suite(.needsFixtures)
struct MixRunTests {
    func options(count: Int = 12, format: MixOptions.OutputFormat = .pcm16, snrMode: MixOptions.SNRMode = .global) -> MixOptions {
        var o = MixOptions()
        o.count = count; o.seconds = 2; o.snrDB = .uniform(low: -5, high: 20); o.seed = 3
        o.format = format; o.snrMode = snrMode; o.noisesPerClip = CountRange(low: 1, high: 2)
        return o
    }
    let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path])

    func mix(_ options: MixOptions, into folder: URL, jobs: Int = 2, shard: Shard = .whole, inputs: MixInputs? = nil) throws -> MixResult {
        try MixRun.prepare(options: options, inputs: inputs ?? self.inputs, output: folder, shard: shard, jobs: jobs).run()
    }

    func read(_ folder: URL, _ relative: String) throws -> [Double] {
        try AudioFile.read(at: folder.appendingPathComponent(relative)).samples.map(Double.init)
    }

    @Test(arguments: [MixOptions.OutputFormat.pcm16, .float32])
    func realisedSNRMeasuredFromTheFilesMatchesTheRequest(format: MixOptions.OutputFormat) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let result = try mix(options(format: format), into: folder.url)
        #expect(result.records.count == 12 && result.failures.isEmpty)
        let tolerance = format == .pcm16 ? 0.05 : 0.01
        for record in result.records {
            let clean = try read(folder.url, record.clean), noise = try read(folder.url, record.noise), noisy = try read(folder.url,
                                                                                                                         record.noisy)
            let measured = 10 * log10(clean.reduce(0) { $0 + $1 * $1 } / noise.reduce(0) { $0 + $1 * $1 })
            #expect(abs(measured - record.snrDBRequested) < tolerance, "\(record.clipID): \(measured) vs \(record.snrDBRequested)")
            #expect(abs(measured - record.snrDBRealised) < 1e-6)
            // noisy = clean + noise: exact in float, within one 16-bit step (rounding) otherwise.
            let step = format == .pcm16 ? 1.0 / 32768 + 1e-12 : 0
            for i in 0..<noisy.count where abs(noisy[i] - Float(clean[i] + noise[i]).asDouble) > step {
                Issue.record("\(record.clipID) sample \(i): noisy \(noisy[i]) != clean+noise \(clean[i] + noise[i])"); break
            }
        }
    }

    @Test func activeSNRModeUsesP56Level() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let result = try mix(options(count: 6, format: .float32, snrMode: .active), into: folder.url)
        for record in result.records {
            let clean = try read(folder.url, record.clean), noise = try read(folder.url, record.noise)
            let active = try clean.withUnsafeBufferPointer { try ActiveSpeechLevel.measure($0, sampleRate: 16000) }
            let measured = 10 * log10(active.activePower / (noise.reduce(0) { $0 + $1 * $1 } / Double(noise.count)))
            #expect(abs(measured - record.snrDBRequested) < 0.01)
        }
    }

    /// Every level mode: the recorded realised level is the written noisy stem's level by that
    /// mode, and hits the requested one unless the clipping rule scaled the clip down.
    @Test(arguments: [MixOptions.LevelMode.rms, .active, .lufs])
    func realisedLevelIsTheWrittenNoisyStemsLevel(mode: MixOptions.LevelMode) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var o = options(count: 6)
        o.levelMode = mode
        o.levelDBFS = .uniform(low: -30, high: -20)
        let result = try mix(o, into: folder.url)
        #expect(result.records.count == 6 && result.failures.isEmpty)
        for record in result.records {
            let noisy = try AudioFile.read(at: folder.url.appendingPathComponent(record.noisy)).samples
            let measured: Double
            switch mode {
            case .rms: measured = Levels.rmsDBFS(noisy)
            case .active: measured = 10 * log10(try ActiveSpeechLevel.measure(noisy, sampleRate: 16000).activePower)
            case .lufs: measured = try Levels.loudnessLUFS(noisy, sampleRate: 16000)
            }
            #expect(abs(measured - record.levelDBFSRealised) < 1e-6,
                    "\(record.clipID): \(measured) vs recorded \(record.levelDBFSRealised)")
            if record.clippingScale == 1 {
                // Within 16-bit rounding of the request (active and LUFS scales are refined on the mixture).
                #expect(abs(measured - record.levelDBFS) < 0.02, "\(record.clipID): \(measured) vs requested \(record.levelDBFS)")
            }
        }
    }

    func fileBytes(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for sub in ["noisy", "clean", "noise"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path) {
                out["\(sub)/\(name)"] = try Data(contentsOf: folder.appendingPathComponent("\(sub)/\(name)"))
            }
        }
        return out
    }

    @Test func outputIsByteIdenticalWhateverJobsShardsAndInputOrder() throws {
        let a = try TemporaryFolder(), b = try TemporaryFolder(), c = try TemporaryFolder()
        defer { a.cleanup(); b.cleanup(); c.cleanup() }
        _ = try mix(options(), into: a.url, jobs: 1)
        // The same sources listed in reverse order through a file list.
        let speechFiles = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("speech").path).filter { $0.hasSuffix(".wav") }
        let list = b.file("speech.txt")
        try speechFiles.sorted(by: >).map { "speech/\($0)" }.joined(separator: "\n")
            .write(to: list, atomically: true, encoding: .utf8)
        _ = try mix(options(), into: b.url.appendingPathComponent("out"), jobs: 8)
        for i in 1...3 { _ = try mix(options(), into: c.url, jobs: 2, shard: Shard(index: i, count: 3)) }
        let reference = try fileBytes(a.url)
        #expect(reference.count == 36)
        #expect(try fileBytes(b.url.appendingPathComponent("out")) == reference)
        #expect(try fileBytes(c.url) == reference)
        let shardRecords = try (1...3).flatMap { i in
            try MixManifestRecord.read(c.url.appendingPathComponent("manifest-shard-\(i)-of-3.jsonl"))
        }.sorted { $0.index < $1.index }
        #expect(shardRecords == (try MixManifestRecord.read(a.url.appendingPathComponent("manifest.jsonl"))))
    }

    @Test func interruptedRunResumesWithoutRedoingFinishedClips() throws {
        let full = try TemporaryFolder(), partial = try TemporaryFolder()
        defer { full.cleanup(); partial.cleanup() }
        _ = try mix(options(), into: full.url)
        _ = try mix(options(), into: partial.url)
        // Simulate a kill: drop the manifest, tear the journal's last line, remove one clip's noisy file
        // and leave a temporary file behind.
        let layout = MixCorpusLayout(root: partial.url)
        try FileManager.default.removeItem(at: layout.manifest)
        var journal = try Data(contentsOf: layout.journal)
        journal.removeLast(40)
        try journal.write(to: layout.journal)
        try FileManager.default.removeItem(at: partial.url.appendingPathComponent("noisy/s3-0000004.wav"))
        try Data("half".utf8).write(to: partial.url.appendingPathComponent("noisy/.s3-0000004.wav.tmp-1-1"))
        let resumed = try mix(options(), into: partial.url)
        #expect(resumed.written == 2)  // the torn journal line's clip and the clip missing a file
        #expect(resumed.resumed == 10)
        #expect(try fileBytes(partial.url) == (try fileBytes(full.url)))
        #expect(try Data(contentsOf: layout.manifest) == (try Data(contentsOf: MixCorpusLayout(root: full.url).manifest)))
    }

    @Test func aDifferentMixIntoTheSameFolderIsRefused() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        _ = try mix(options(), into: folder.url)
        var other = options(); other.seed = 99
        #expect(throws: MixError.self) { try MixRun.prepare(options: other, inputs: inputs, output: folder.url, jobs: 1) }
    }

    @Test func badSourcesAreSkippedWithReasons() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let noiseFolder = folder.url.appendingPathComponent("noise")
        try FileManager.default.createDirectory(at: noiseFolder, withIntermediateDirectories: true)
        try AudioWriter.write(AudioBuffer(samples: [Float](repeating: 0, count: 16000), sampleRate: 16000),
                              to: noiseFolder.appendingPathComponent("silent.wav"))
        try Data("not audio".utf8).write(to: noiseFolder.appendingPathComponent("corrupt.wav"))
        try AudioWriter.write(AudioBuffer(samples: [0.1, -0.1], sampleRate: 16000), to: noiseFolder.appendingPathComponent("short.wav"))
        // Only bad noise: the mix refuses with a clear error.
        #expect(throws: MixError.noUsableSources(kind: "noise", skipped: 3)) {
            try MixRun.prepare(options: options(), inputs: MixInputs(speech: [Fixtures.url("speech").path], noise: [noiseFolder.path]),
                               output: folder.url.appendingPathComponent("out"), jobs: 1)
        }
        // With a good noise too, the bad ones are skipped and reported.
        try FileManager.default.copyItem(at: Fixtures.url("noise/running_tap.wav"), to: noiseFolder.appendingPathComponent("tap.wav"))
        let run = try MixRun.prepare(options: options(count: 3), inputs: MixInputs(speech: [Fixtures.url("speech").path],
                                                                                   noise: [noiseFolder.path]),
                                     output: folder.url.appendingPathComponent("out"), jobs: 1)
        #expect(Set(run.skippedSources.map { ($0.path as NSString).lastPathComponent }) == ["silent.wav", "corrupt.wav", "short.wav"])
        let result = try run.run()
        #expect(result.records.allSatisfy { $0.noiseSources.allSatisfy { $0.path.hasSuffix("tap.wav") } })
        #expect(result.records.allSatisfy { $0.snrDBRealised.isFinite })
    }
}

extension Float {
    var asDouble: Double { Double(self) }
}
