import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// RIRs a mix refuses before writing any clip, and `--split-sources`.
@Suite(.needsFixtures)
struct RIRCheckTests {
    func prepare(rir: [Float], seconds: Double = 1, in folder: TemporaryFolder) throws -> MixRun {
        let url = folder.url.appendingPathComponent("rir.wav")
        try AudioWriter.write(AudioBuffer(samples: rir, sampleRate: 16000), to: url, format: .wavFloat32)
        var o = MixOptions()
        o.count = 2; o.seconds = seconds
        let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path], rir: [url.path])
        return try MixRun.prepare(options: o, inputs: inputs, output: folder.url.appendingPathComponent("out"), jobs: 1)
    }

    func refusal(_ rir: [Float], seconds: Double = 1) throws -> String {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        do { _ = try prepare(rir: rir, seconds: seconds, in: folder) } catch let error as MixError {
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out").path), "nothing is written")
            return error.description
        }
        Issue.record("accepted")
        return ""
    }

    @Test func silentSingleSampleAndOverlongResponsesAreRefusedByName() throws {
        #expect(try refusal([Float](repeating: 0, count: 4000)).contains("rir.wav: all samples are zero"))
        #expect(try refusal([1]).contains("rir.wav: holds 1 sample"))
        var long = [Float](repeating: 0, count: 24000)
        long[10] = 1
        let message = try refusal(long, seconds: 1)
        #expect(message.contains("rir.wav: is 1.5 s long, longer than a clip (--seconds 1), 1 s"), "\(message)")
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        _ = try prepare(rir: long, seconds: 1.5, in: folder)   // as long as the clip: accepted
    }

    @Test func splitSourcesSpeechSharesNoiseAndResponsesBetweenSplits() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var o = MixOptions()
        o.count = 8; o.seconds = 1; o.split = try SplitSpec(parsing: "train=0.5,test=0.5")
        let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise/running_tap.wav").path],
                               rir: [Fixtures.url("rir/small_room.wav").path])
        #expect(throws: MixError.self) { try MixRun.prepare(options: o, inputs: inputs, output: folder.url, jobs: 1) }
        do { _ = try MixRun.prepare(options: o, inputs: inputs, output: folder.url, jobs: 1) } catch let error as MixError {
            #expect(error.description.contains("--split-sources speech shares them"))
        }
        o.splitSources = .speech
        let result = try MixRun.prepare(options: o, inputs: inputs, output: folder.url, jobs: 1).run()
        #expect(Set(result.records.map(\.split)) == ["train", "test"])
        #expect(Set(result.records.flatMap { $0.noiseSources.map(\.path) }).count == 1)
        var single = MixOptions()
        single.count = 1; single.splitSources = .speech
        #expect(throws: MixError.self) { try single.validate() }
    }
}
