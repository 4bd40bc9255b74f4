import Foundation
import Testing
import SEKitTestSupport

/// `sekit mix --sample-rate native` through the real binary, on tones written at 48 and 16 kHz:
/// clips at their speech's rate, `features` refusing the mixed corpus and exporting one rate, a
/// speech rate no noise reaches refused with nothing written, a bad `--sample-rate` named.
@Suite(.serialized)
struct MixNativeRateCommandTests {
    /// Speech tones at 48 and 16 kHz, noise tones at `noiseRate`.
    func sources(_ folder: TemporaryFolder, noiseRate: Int) throws {
        try TestWAV.writePCM16(TestWAV.sine(seconds: 2, sampleRate: 48000, frequencyHz: 300), sampleRate: 48000,
                               to: folder.file("speech/a-48000.wav"))
        try TestWAV.writePCM16(TestWAV.sine(seconds: 2, sampleRate: 16000, frequencyHz: 500), sampleRate: 16000,
                               to: folder.file("speech/b-16000.wav"))
        try TestWAV.writePCM16(TestWAV.sine(seconds: 3, sampleRate: noiseRate, frequencyHz: 1000), sampleRate: noiseRate,
                               to: folder.file("noise/n-\(noiseRate).wav"))
    }

    func mix(_ folder: TemporaryFolder, _ extra: [String] = []) throws -> SEKitBinary.Result {
        try SEKitBinary.run(["mix", "--speech", folder.file("speech").path, "--noise", folder.file("noise").path, "--count", "10",
                             "--seconds", "0.5", "--seed", "2", "--sample-rate", "native", "--out", folder.file("out").path,
                             "--no-catalog"] + extra)
    }

    @Test func clipsKeepTheirSpeechRateAndFeaturesTakeOneRateAtATime() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try sources(folder, noiseRate: 48000)
        let made = try mix(folder)
        #expect(made.status == 0, "\(made.stderr)")
        let lines = try String(contentsOf: folder.file("out/manifest.jsonl"), encoding: .utf8).split(separator: "\n")
        var rates: [Int: Int] = [:]
        for line in lines {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let rate = record["sample_rate"] as! Int
            let speech = ((record["speech_sources"] as! [[String: Any]])[0]["path"] as! String)
            #expect(speech.hasSuffix("-\(rate).wav"), "\(speech) at \(rate) Hz")
            #expect(record["num_samples"] as? Int == rate / 2, "--seconds 0.5 at \(rate) Hz")
            rates[rate, default: 0] += 1
        }
        #expect(Set(rates.keys) == [16000, 48000], "\(rates)")
        let corpus = folder.file("out").path
        let refused = try SEKitBinary.run(["features", "--corpus", corpus, "--out", folder.file("all.h5").path, "--no-catalog"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("48000 Hz (\(rates[48000]!) clip") && refused.stderr.contains("16000 Hz (\(rates[16000]!) clip"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("all.h5").path))
        let one = try SEKitBinary.run(["features", "--corpus", corpus, "--out", folder.file("16k.h5").path, "--sample-rate", "16000",
                                       "--no-catalog"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("\(rates[16000]!)"), "\(one.stdout)")
    }

    @Test func aSpeechRateNoNoiseReachesIsRefusedWithNothingWritten() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try sources(folder, noiseRate: 16000)
        let refused = try mix(folder)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("48000 Hz") && refused.stderr.contains("a-48000.wav"), "\(refused.stderr)")
        #expect(refused.stderr.contains("highest noise rate is 16000 Hz"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/noisy").path))
        let bad = try SEKitBinary.run(["mix", "--speech", folder.file("speech").path, "--noise", folder.file("noise").path,
                                       "--count", "1", "--sample-rate", "nat", "--out", folder.file("bad").path, "--no-catalog"])
        #expect(bad.status != 0 && bad.stderr.contains("sample-rate") && bad.stderr.contains("native"), "\(bad.stderr)")
    }
}
