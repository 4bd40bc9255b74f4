import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal
import SEKitTestSupport

/// `sekit mix --sample-rate native` in the library, on fixture speech and noise resampled to 48, 16
/// and 8 kHz: each clip at its speech source's rate, noise never upsampled, the same bytes whatever
/// `--jobs` or `--shard`, a re-render from the manifest byte-identical, a speech rate no noise reaches refused
/// before any clip; and the mixed-rate corpus through `features` (refused, or one rate) and `score`.
@Suite(.needsFixtures)
struct NativeRateMixTests {
    /// Fixture files copied at the given rates with SEKit's soxr resampler, named `NAME-RATE.wav`.
    static func resampledCopies(_ files: [(name: String, rate: Int)], kind: String, into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, rate) in files {
            let buffer = try Resampler.resample(try AudioFile.read(at: Fixtures.url("\(kind)/\(name).wav")), to: rate)
            _ = try AudioWriter.write(buffer, to: folder.appendingPathComponent("\(name)-\(rate).wav"))
        }
    }

    /// Speech at 48, 16 and 8 kHz; noise at `noiseRates` (by default the same three).
    static func sources(in folder: TemporaryFolder, noiseRates: [Int] = [48000, 16000, 8000]) throws -> (speech: URL, noise: URL) {
        let speech = folder.file("speech"), noise = folder.file("noise")
        try resampledCopies([("arctic_a0007", 48000), ("arctic_a0008", 16000), ("vctk_p287_001", 8000), ("arctic_a0009", 48000)],
                            kind: "speech", into: speech)
        let noises = ["demand_residual_p287_003_noise", "demand_residual_p287_005_noise", "demand_residual_p287_004_noise"]
        try resampledCopies(Array(zip(noises, noiseRates)).map { ($0.0, $0.1) }, kind: "noise", into: noise)
        return (speech, noise)
    }

    /// The rate a copy's name carries (`NAME-RATE.wav`).
    static func rate(inName path: String) -> Int {
        Int(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.split(separator: "-").last!)!
    }

    func settings(_ sources: (speech: URL, noise: URL), _ overrides: [String: [String]] = [:]) throws -> (MixOptions, MixInputs) {
        var values: [String: [String]] = ["count": ["12"], "seconds": ["1.5"], "seed": ["5"], "sample-rate": ["native"],
                                          "speech": [sources.speech.path], "noise": [sources.noise.path]]
        values.merge(overrides) { $1 }
        return try MixSettings.parse(values)
    }

    @discardableResult
    func mix(_ settings: (MixOptions, MixInputs), into folder: URL, jobs: Int = 1) throws -> MixResult {
        try MixedCorpus.mix(settings, into: folder, jobs: jobs)
    }

    func bytes(_ folder: URL, _ path: String) -> Data? { FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) }

    @Test func eachClipKeepsItsSpeechRateAndItsNoiseIsNeverUpsampled() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.file("corpus")
        let result = try mix(try settings(try Self.sources(in: folder)), into: corpus)
        #expect(result.records.count == 12)
        for record in result.records {
            let speechRate = Self.rate(inName: record.speechSources[0].path)
            #expect(record.sampleRate == speechRate, "\(record.clipID)")
            #expect(record.numSamples == Int((1.5 * Double(speechRate)).rounded()), "--seconds stays seconds: \(record.clipID)")
            for noise in record.noiseSources {
                #expect(Self.rate(inName: noise.path) >= record.sampleRate, "\(noise.path) upsampled for \(record.clipID)")
            }
            for stem in [record.noisy, record.clean, record.noise] {
                let written = try AudioFile.read(at: corpus.appendingPathComponent(stem))
                #expect(written.sampleRate == record.sampleRate && written.count == record.numSamples, "\(stem)")
            }
        }
        #expect(Set(result.records.map(\.sampleRate)) == [8000, 16000, 48000])
        let spec = try JSONSerialization.jsonObject(with: bytes(corpus, "mix.json")!) as! [String: Any]
        #expect(spec["sample_rate"] as? String == "native")
        #expect(spec["sample_rates"] as? [Int] == [8000, 16000, 48000])
    }

    /// Issue 40 item 11: `mix.json` listed every speech file's rate (7999 Hz that no clip had); it lists the clips' rates.
    @Test func mixJsonListsTheRatesTheClipsHave() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let sources = try Self.sources(in: folder)
        for count in ["1", "2", "3"] {
            let corpus = folder.file("corpus-\(count)")
            let result = try mix(try settings(sources, ["count": [count]]), into: corpus)
            let spec = try JSONSerialization.jsonObject(with: bytes(corpus, "mix.json")!) as! [String: Any]
            let rates = Set(result.records.map(\.sampleRate)).sorted()
            #expect(spec["sample_rates"] as? [Int] == rates, "\(count) clips: \(spec["sample_rates"] ?? "none") vs \(rates)")
        }
    }

    @Test func theSameBytesWhateverTheJobsAndFromTheManifest() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let sources = try Self.sources(in: folder)
        let options = try settings(sources, ["noises-per-clip": ["1:2"], "bandwidth-rates": ["8000,16000"],
                                             "wind-probability": ["0.3"], "lowpass-hz": ["3000:6000"], "codec": ["mp3,opus"],
                                             "codec-probability": ["0.5"], "packet-loss": ["0.1"], "packet-loss-probability": ["0.5"]])
        let one = folder.file("one"), two = folder.file("two"), again = folder.file("again")
        let first = try mix(options, into: one, jobs: 1)
        try mix(options, into: two, jobs: 2)
        _ = try MixRun.prepare(fromManifest: one.appendingPathComponent("manifest.jsonl"), output: again, jobs: 2).run()
        let sharded = folder.file("sharded")
        for index in 1...2 {
            _ = try MixRun.prepare(options: options.0, inputs: options.1, output: sharded, shard: Shard(index: index, count: 2),
                                   jobs: 1).run()
        }
        #expect(bytes(one, "manifest.jsonl") != nil && bytes(one, "manifest.jsonl") == bytes(two, "manifest.jsonl"))
        #expect(bytes(one, "manifest.jsonl") == bytes(again, "manifest.jsonl"))
        for record in first.records {
            for stem in [record.noisy, record.clean, record.noise] {
                #expect(bytes(one, stem) == bytes(two, stem), "--jobs 2: \(stem)")
                #expect(bytes(one, stem) == bytes(again, stem), "--from-manifest: \(stem)")
                #expect(bytes(one, stem) == bytes(sharded, stem), "--shard i/2: \(stem)")
            }
            // Band limits only below the clip's own rate: an 8 kHz clip is never band-limited.
            for degradation in record.degradations ?? [] where degradation.stage == .bandwidth {
                #expect(degradation.bandwidthRateHz! < record.sampleRate, "\(record.clipID)")
            }
            if let cutoff = record.lowpassHz { #expect(cutoff < Double(record.sampleRate) / 2, "\(record.clipID)") }
        }
        #expect(first.records.contains { r in r.sampleRate == 48000 && (r.degradations ?? []).contains { $0.stage == .bandwidth } })
        // Codecs and packet loss ran at the lower rates too.
        #expect(first.records.contains { r in r.sampleRate < 48000 && (r.degradations ?? []).contains { $0.stage == .codec } })
        #expect(first.records.contains { r in r.sampleRate < 48000 && (r.degradations ?? []).contains { $0.stage == .packetLoss } })
    }

    @Test func aSpeechRateNoNoiseReachesIsRefusedBeforeAnyClip() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.file("corpus")
        let sources = try Self.sources(in: folder, noiseRates: [16000, 16000, 8000])
        do {
            try mix(try settings(sources), into: corpus)
            Issue.record("a 48 kHz speech file with noise at 16 kHz at most was mixed")
        } catch let error as MixError {
            let text = "\(error)"
            #expect(text.contains("48000 Hz") && text.contains("arctic_a0007-48000.wav"), "\(text)")
            #expect(text.contains("arctic_a0009-48000.wav"), "\(text)")
            #expect(text.contains("highest noise rate is 16000 Hz"), "\(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: corpus.appendingPathComponent("noisy").path))
        #expect(throws: MixError.self) { try MixSettings.parse(["sample-rate": ["natve"]]) }
    }

    @Test func featuresRefuseMixedRatesAndExportOneRate() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.file("corpus")
        let records = try mix(try settings(try Self.sources(in: folder)), into: corpus).records
        let counts = Dictionary(grouping: records, by: \.sampleRate).mapValues(\.count)
        do {
            _ = try FeatureExport.run(corpus: corpus, output: folder.file("all.h5"), options: FeatureExportOptions())
            Issue.record("a corpus at three rates was exported into one file")
        } catch let error as FeatureFileError {
            let text = "\(error)"
            for (rate, count) in counts { #expect(text.contains("\(rate) Hz (\(count) clip"), "\(text)") }
            #expect(text.contains("--sample-rate"), "\(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("all.h5").path))
        for rate in [8000, 48000] {
            var options = FeatureExportOptions()
            options.sampleRate = rate
            options.framing = .dns
            let output = folder.file("\(rate).h5")
            let (result, _) = try FeaturesJob.run(.init(corpus: corpus, output: output, options: options), context: .unrecorded)
            #expect(result.clips == counts[rate])
            #expect(result.stft.winLength == rate / 50, "dns framing at \(rate) Hz: 20 ms")
            #expect(try FeatureFileReader(url: output).attributes[FeatureFileAttributes.Name.sampleRate] == .int(rate))
        }
        var missing = FeatureExportOptions()
        missing.sampleRate = 22050
        #expect(throws: FeatureFileError.self) { try FeatureExport.run(corpus: corpus, output: folder.file("x.h5"), options: missing) }
    }

    @Test func scoreTakesEachClipAtItsOwnRate() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.file("corpus")
        let records = try mix(try settings(try Self.sources(in: folder)), into: corpus).records
        var request = ScoreJob.Request(pairing: .corpus(corpus, enhanced: nil, split: nil), metrics: [.stoi, .sisdr],
                                       checkpoint: "noisy")
        request.jobs = 2
        let outcome = try ScoreJob.run(request, context: .unrecorded)
        #expect(outcome.clips.count == records.count && outcome.failed == 0, "\(outcome.clips.compactMap(\.error))")
        for clip in outcome.clips {
            #expect(clip.enhanced[.stoi].map { $0 > 0 && $0 <= 1 } == true, "\(clip.pair.clipID)")
            #expect(clip.enhanced[.sisdr]?.isFinite == true, "\(clip.pair.clipID)")
        }
    }
}
