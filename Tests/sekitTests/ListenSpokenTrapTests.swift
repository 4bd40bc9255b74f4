import Foundation
import SEKit
import Testing

/// `sekit listen make --spoken-trap`: the trapping trial's stimulus is the plain test's trap clip, half a
/// second of silence and espeak-ng reading the instruction (compared sample by sample with espeak-ng run
/// here on the same sentence); the page no longer writes the instruction; MUSHRA, which has no trapping
/// trial, refuses the option.
@Suite(.serialized, .needsFixtures)
struct ListenSpokenTrapTests {
    func trap(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/test.json"))
        let test = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let trials = try #require(test["trials"] as? [[String: Any]])
        return try #require(trials.first { $0["role"] as? String == "trap" })
    }

    func stimulus(_ folder: String, _ trial: [String: Any]) throws -> AudioBuffer {
        let stimuli = try #require(trial["stimuli"] as? [[String: Any]])
        return try AudioFile.read(at: URL(fileURLWithPath: folder + "/" + (stimuli[0]["file"] as! String)))
    }

    @Test func theTrappingTrialSpeaksItsAnswerAfterTheClip() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        for (out, spoken) in [("plain", false), ("spoken", true)] {
            let made = try SEKitBinary.run(["listen", "make", "--runs", "logmmse", "--test", "acr", "--clips", "3", "--out",
                                            folder.path(out), "--catalog", catalog] + (spoken ? ["--spoken-trap"] : []))
            #expect(made.status == 0, "\(made.stderr)")
        }
        let plain = try trap(folder.path("plain")), spoken = try trap(folder.path("spoken"))
        let expected = try #require(spoken["expected"] as? Double)
        #expect(plain["expected"] as? Double == expected)
        #expect((plain["instruction"] as? String)?.contains("answer \(Int(expected))") == true)
        #expect(spoken["instruction"] == nil)
        let sentence = try #require(spoken["spokenInstruction"] as? String)
        #expect(sentence.contains("select the answer \(Int(expected))"), "\(sentence)")
        let page = try String(contentsOfFile: folder.path("spoken/index.html"), encoding: .utf8)
        #expect(!page.contains("select the answer") && !page.contains("Attention check"))

        // The clip, then 0.5 s of silence, then espeak-ng's reading of the sentence at the clip's rate.
        let clip = try stimulus(folder.path("plain"), plain), audio = try stimulus(folder.path("spoken"), spoken)
        let wav = folder.path("espeak.wav")
        let espeak = Process()
        espeak.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        espeak.arguments = ["espeak-ng", "-v", "en-us", "-s", "150", "-w", wav, sentence]
        try espeak.run()
        espeak.waitUntilExit()
        #expect(espeak.terminationStatus == 0, "espeak-ng is needed (scripts/setup.sh installs it)")
        let speech = try AudioFile.read(at: URL(fileURLWithPath: wav), sampleRate: clip.sampleRate).samples
        let pause = clip.sampleRate / 2
        #expect(audio.sampleRate == clip.sampleRate)
        #expect(speech.count > clip.sampleRate, "a sentence of over a second")
        #expect(audio.samples.count == clip.samples.count + pause + speech.count)
        #expect(Array(audio.samples.prefix(clip.samples.count)) == clip.samples)
        #expect(audio.samples[clip.samples.count..<(clip.samples.count + pause)].allSatisfy { $0 == 0 })
        let tail = audio.samples.suffix(speech.count)
        let largest = zip(tail, speech).map { abs($0 - $1) }.max() ?? 1
        #expect(largest <= 1.0 / 32768 + 1e-6, "16-bit quantisation at most: \(largest)")
    }

    @Test func aTestWithoutATrappingTrialRefusesTheOption() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        let made = try SEKitBinary.run(["listen", "make", "--runs", "logmmse", "--test", "mushra", "--clips", "2", "--out",
                                        folder.path("mushra"), "--spoken-trap", "--catalog", catalog])
        #expect(made.status != 0)
        #expect(made.stderr.contains("spoken-trap") && made.stderr.contains("no trapping trial"), "\(made.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("mushra/test.json")))
    }
}
