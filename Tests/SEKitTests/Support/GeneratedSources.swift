import Foundation
@testable import SEKit
@testable import SEKitSignal

/// Small generated speech and noise sources for mix tests that need no real recordings.
enum GeneratedSources {
    /// Writes one-second 16 kHz PCM16 sines under `folder` (`speech/…`, `noise/…`) and returns
    /// the mix inputs naming the two folders.
    static func mixInputs(in folder: TemporaryFolder, speech: [String] = ["a.wav"], noise: [String] = ["n.wav"]) throws -> MixInputs {
        let files = speech.enumerated().map { ("speech/" + $1, 1.0 + Double($0)) } + noise.map { ("noise/" + $0, 3.0) }
        for (name, rate) in files {
            let samples = (0..<16_000).map { Float(0.3 * sin(Double($0) * 0.01 * rate)) }
            let url = folder.file(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AudioWriter.write(AudioBuffer(samples: samples, sampleRate: 16_000), to: url, format: .wavPCM16)
        }
        return MixInputs(speech: [folder.file("speech").path], noise: [folder.file("noise").path])
    }
}
