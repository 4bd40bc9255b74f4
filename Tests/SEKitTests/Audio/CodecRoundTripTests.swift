import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// In-memory codec round trips on synthetic signals (the real-speech checks are in
/// `Mixing/DegradationStageTests`).
@Suite struct CodecRoundTripTests {
    @Test func realignmentCorrectsSmallLagsAndLeavesSilenceAlone() {
        let x = (0..<4000).map { Float(sin(Double($0) * 0.05) * sin(Double($0) * 0.0031)) }
        let early = Array(x.dropFirst(2)) + [0, 0]   // y[i] = x[i + 2]: two samples early
        let fixed = CodecRoundTrip.realigned(early, to: x, maximumLag: 3)
        #expect(Array(fixed[2..<3998]) == Array(x[2..<3998]))
        let silence = [Float](repeating: 0, count: 1000)
        #expect(CodecRoundTrip.realigned(silence, to: silence, maximumLag: 3) == silence)
    }

    @Test(arguments: AudioCodec.allCases)
    func silenceAndShortInputsComeBackAtTheirLength(codec: AudioCodec) throws {
        let settings = CodecSettings(codec: codec, mp3BitrateKbps: 32, opusBitrateKbps: 16, vorbisQuality: 0.3)
        for count in [1, 161, 16000] {
            let out = try CodecRoundTrip.apply([Float](repeating: 0, count: count), sampleRate: 16000, settings: settings)
            #expect(out.count == count, "\(codec), \(count) samples")
            #expect(out.allSatisfy { abs($0) < 1e-3 }, "\(codec): silence stays (near) silent")
        }
    }

    @Test func missingOrImpossibleSettingsNameTheParameter() {
        #expect(throws: AudioError.invalidParameter(name: "mp3-bitrate-kbps", value: "(none)", reason: "needed for mp3")) {
            try CodecRoundTrip.apply([0, 0], sampleRate: 16000, settings: CodecSettings(codec: .mp3))
        }
        #expect(throws: AudioError.self) {
            try CodecRoundTrip.apply([0, 0], sampleRate: 16000, settings: CodecSettings(codec: .mp3, mp3BitrateKbps: 33))
        }
    }
}
