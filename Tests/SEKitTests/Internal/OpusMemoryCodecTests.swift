import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// libopus called directly (``OpusMemoryCodec``) against libsndfile's Ogg Opus round trip, on real
/// speech: bit-identical at complexity 10, and really coding (differently) at lower complexities.
@Suite(.needsFixtures)
struct OpusMemoryCodecTests {
    /// Real speech at `rate` Hz, cut to `count` samples when given.
    func speech(_ name: String, rate: Int, count: Int? = nil) throws -> [Float] {
        let buffer = try Resampler.resample(try AudioFile.read(at: Fixtures.url("speech/\(name)")), to: rate)
        return count.map { Array(buffer.samples.prefix($0)) } ?? buffer.samples
    }

    /// What libsndfile decodes of `samples` written as Ogg Opus at `kbps`: every sample it returns.
    func throughLibsndfile(_ samples: [Float], rate: Int, kbps: Int) throws -> [Float] {
        let format = try CodecRoundTrip.format(CodecSettings(codec: .opus, opusBitrateKbps: kbps), codingRate: rate)
        return try SndfileMemoryCodec.roundTrip(samples, sampleRate: rate, format: format)
    }

    func direct(_ samples: [Float], rate: Int, kbps: Int, complexity: Int) throws -> [Float] {
        let format = try CodecRoundTrip.format(CodecSettings(codec: .opus, opusBitrateKbps: kbps), codingRate: rate)
        return try OpusMemoryCodec.roundTrip(samples, sampleRate: rate, bitrate: CodecRoundTrip.opusBitrate(format), complexity: complexity)
    }

    /// Every Opus rate, bitrates from SILK to CELT, whole utterances and lengths that end the last
    /// frame at awkward places (the flush's short last packet).
    @Test(arguments: OpusMemoryCodec.rates)
    func complexityTenIsBitIdenticalToLibsndfile(rate: Int) throws {
        let utterances = [("arctic_a0007.wav", nil), ("vctk_p287_001.wav", nil), ("cmu_arctic_us_axb_a0004.wav", 4096),
                          ("librispeech_198-209-0000.wav", 33333), ("arctic_a0008.wav", rate / 50 * 7 + 1)]
        for (name, count) in utterances {
            let x = try speech(name, rate: rate, count: count)
            for kbps in [6, 9, 12, 16, 24, 32, 48, 64, 128, 256] {
                let reference = try throughLibsndfile(x, rate: rate, kbps: kbps)
                let ours = try direct(x, rate: rate, kbps: kbps, complexity: 10)
                #expect(reference.count == x.count && ours == reference, "\(name) (\(x.count) samples) at \(rate) Hz, \(kbps) kbps")
            }
        }
    }

    /// Complexities 0-7 code differently from 10 (with libopus 1.3.1, 8 and 9 decode identically to
    /// 10 on speech, so they are not checked here).
    @Test func lowerComplexitiesCodeDifferentlyAndStillCode() throws {
        let x = try speech("vctk_p287_002.wav", rate: 16000)
        for kbps in [8, 16, 32] {
            let best = try direct(x, rate: 16000, kbps: kbps, complexity: 10)
            for complexity in [0, 1, 3, 5, 7] {
                let y = try direct(x, rate: 16000, kbps: kbps, complexity: complexity)
                let (differs, coded) = (y != best, y != x)
                #expect(y.count == x.count)
                #expect(differs, "complexity \(complexity) at \(kbps) kbps codes differently from 10")
                #expect(coded, "complexity \(complexity) at \(kbps) kbps is not the identity")
            }
        }
    }

    @Test func refusesRatesAndComplexitiesLibopusDoesNotTake() {
        #expect(throws: OpusMemoryCodec.Failure.self) { try OpusMemoryCodec.roundTrip([0, 0], sampleRate: 44100, bitrate: 16000,
                                                                                      complexity: 10) }
        #expect(throws: OpusMemoryCodec.Failure.self) { try OpusMemoryCodec.roundTrip([0, 0], sampleRate: 16000, bitrate: 16000,
                                                                                      complexity: 11) }
        #expect(throws: AudioError.invalidParameter(name: "opus-complexity", value: "-1", reason: "must be 0-10")) {
            try CodecRoundTrip.apply([0, 0], sampleRate: 16000, settings: CodecSettings(codec: .opus, opusBitrateKbps: 16,
                                                                                        opusComplexity: -1))
        }
    }
}
