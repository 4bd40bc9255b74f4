import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// DNSMOS in the worker against `speechmos.dnsmos.run` called directly.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct DNSMOSTests {
    static let direct = "[v for k in ('sig_mos', 'bak_mos', 'ovrl_mos', 'p808_mos') for v in [speechmos.dnsmos.run(a, 16000)[k]]]"

    func dnsmos(_ samples: [Float], rate: Int, workspace: MetricWorkspace) throws -> (values: [Double], comparison: MetricComparison) {
        let comparison = MetricComparison(processed: samples, sampleRate: rate)
        let values = try MetricRegistry.descriptor(named: "dnsmos")!.compute(comparison, workspace: workspace)
        return ([.dnsmosSIG, .dnsmosBAK, .dnsmosOVRL, .dnsmosP808].map { values[$0]! }, comparison)
    }

    /// A 3-second clip (repeated up to the 9.01 s window, speechmos' rule), a 14-second one
    /// (several windows), and a 44.1 kHz one (converted to 16 kHz first).
    @Test func equalsSpeechmosWithoutAReference() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let workspace = MetricWorkspace()
        let long = try AudioFile.read(at: Fixtures.url("speech/librispeech_198-209-0000.wav")).samples
        for (name, samples) in [("noisy vctk_p287_002 (3.3 s)", try PythonMetricReference.fixture("noisy/vctk_p287_002.wav")),
                                ("librispeech (14 s)", long)] {
            let (ours, comparison) = try dnsmos(samples, rate: 16000, workspace: workspace)
            #expect(comparison.resampledRates.isEmpty)
            let reference = try PythonMetricReference.values(Self.direct, samples, imports: "import speechmos.dnsmos", in: folder)
            print("DNSMOS \(name): SIG/BAK/OVRL/P808 \(ours) (speechmos \(reference))")
            for (a, b) in zip(ours, reference) { #expect(abs(a - b) < 1e-6, "\(name): \(ours) vs speechmos \(reference)") }
        }
        let at44 = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav", sampleRate: 44100)
        let (ours, comparison) = try dnsmos(at44, rate: 44100, workspace: workspace)
        #expect(comparison.resampledRates == [16000])
        let at16 = try Resampler.resample(AudioBuffer(samples: at44, sampleRate: 44100), to: 16000).samples
        let reference = try PythonMetricReference.values(Self.direct, at16, imports: "import speechmos.dnsmos", in: folder)
        for (a, b) in zip(ours, reference) { #expect(abs(a - b) < 1e-6,
                                                     "44.1 kHz: \(ours) vs speechmos on the soxr-converted clip \(reference)") }
    }

    @Test func samplesOutsideTheUnitRangeAreAPerClipError() throws {
        let speech = try PythonMetricReference.fixture("speech/vctk_p287_002.wav").map { $0 * 4 }
        #expect { try dnsmos(speech, rate: 16000, workspace: MetricWorkspace()) } throws: {
            "\($0)".hasPrefix("dnsmos: samples outside [-1, 1] (peak ") && "\($0)".contains("--full-scale clip or scale")
        }
    }

    /// Issue 40 item 17: recordings that overshoot full scale (decoded MP3, Vorbis) are scored clipped or
    /// scaled when asked, equal to speechmos on the signal so changed, and what was done is noted.
    @Test func clippedAndScaledSignalsEqualSpeechmosOnThemAndAreNoted() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let speech = try PythonMetricReference.fixture("speech/vctk_p287_002.wav").map { $0 * 4 }
        let peak = speech.map(abs).max()!
        for (policy, changed) in [(FullScalePolicy.clip, speech.map { min(1, max(-1, $0)) }),
                                  (.scale, speech.map { $0 / peak })] {
            let workspace = MetricWorkspace()
            workspace.fullScale = policy
            let (ours, _) = try dnsmos(speech, rate: 16000, workspace: workspace)
            let reference = try PythonMetricReference.values(Self.direct, changed, imports: "import speechmos.dnsmos", in: folder)
            for (a, b) in zip(ours, reference) { #expect(abs(a - b) < 1e-6, "\(policy): \(ours) vs speechmos \(reference)") }
            let notes = workspace.takeFullScaleNotes()
            #expect(notes.count == 1 && notes[0].hasPrefix(policy == .clip ? "clipped " : "scaled by "), "\(notes)")
            #expect(workspace.takeFullScaleNotes().isEmpty)
        }
    }
}
