import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// PESQ through the `pesq` package in the worker equals the package called directly, bit for bit,
/// on the fixtures, and the published values of the reference tier.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct PESQTests {
    func score(_ metric: Metric, _ reference: [Float], _ processed: [Float], rate: Int,
               workspace: MetricWorkspace = MetricWorkspace()) throws -> Double {
        let comparison = MetricComparison(reference: ReferenceSignal(samples: reference, sampleRate: rate), processed: processed)
        return try MetricRegistry.descriptor(producing: metric.rawValue)!.compute(comparison, workspace: workspace)[metric]!
    }

    /// VoiceBank-DEMAND's noisy p287_002 (9 dB) and p287_004 (−0.75 dB) against their clean utterances.
    @Test func realNoisyPairsEqualThePackage() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let workspace = MetricWorkspace()
        for utterance in ["vctk_p287_002", "vctk_p287_004"] {
            let clean = try PythonMetricReference.fixture("speech/\(utterance).wav")
            let noisy = try PythonMetricReference.fixture("noisy/\(utterance).wav")
            let wb = try score(.pesqWB, clean, noisy, rate: 16000, workspace: workspace)
            let nb = try score(.pesqNB, clean, noisy, rate: 16000, workspace: workspace)
            let direct = try PythonMetricReference.values("[pesq.pesq(16000, a, b, 'wb'), pesq.pesq(16000, a, b, 'nb')]",
                                                          clean, noisy, in: folder)
            #expect(wb == direct[0] && nb == direct[1], "\(utterance): worker \(wb), \(nb); direct \(direct)")
            #expect(wb > 1 && wb < 4.7 && nb > 1 && nb < 4.7, "\(utterance): \(wb) \(nb)")
        }
    }

    @Test(.referenceTier) func babbleAtZeroDecibelsMatchesThePublishedValuesAndThePackage() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let clean = try PythonMetricReference.reference("speech.wav"),
                noisy = try PythonMetricReference.reference("speech_bab_0dB.wav")
        let workspace = MetricWorkspace()
        let wb = try score(.pesqWB, clean, noisy, rate: 16000, workspace: workspace)
        let nb = try score(.pesqNB, clean, noisy, rate: 16000, workspace: workspace)
        let direct = try PythonMetricReference.values("[pesq.pesq(16000, a, b, 'wb'), pesq.pesq(16000, a, b, 'nb')]", clean, noisy,
                                                      in: folder)
        #expect(wb == direct[0] && nb == direct[1], "worker \(wb), \(nb); direct \(direct)")
        #expect(abs(wb - 1.0832337) < 5e-8 && abs(nb - 1.6072081) < 5e-8, "\(wb) \(nb)")
        print("PESQ speech_bab_0dB: wb \(wb), nb \(nb) (published 1.0832337, 1.6072081)")
    }

    @Test(.referenceTier) func loizouPairsMatchThePackageBitForBitAndResultsMat() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let clean = try PythonMetricReference.reference("1_speech_16000_Hz.wav")
        // results.mat column 10 (wide-band MOS-LQO); it was made with another build of the same
        // code and differs from the package in the 7th decimal (the ITU code returns float32).
        for (file, published) in [("1_noisySpeech_16000_Hz.wav", 1.1624181392), ("1_processed_16000_Hz.wav",
                                                                                         1.0594705493)] {
            let processed = try PythonMetricReference.reference(file)
            let ours = try score(.pesqWB, clean, processed, rate: 16000)
            let direct = try PythonMetricReference.values("[pesq.pesq(16000, a, b, 'wb')]", clean, processed, in: folder)[0]
            #expect(ours == direct, "\(file): worker \(ours), package \(direct)")
            #expect(abs(ours - published) < 1e-6, "\(file): \(ours) vs results.mat \(published)")
        }
    }

    @Test func eightKilohertzIsNarrowBandOnlyAndOtherRatesAreConvertedWithSoxr() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        // 8 kHz goes in as it is: pesq_nb equals the package at 8 kHz; pesq_wb is an error.
        let clean8 = try PythonMetricReference.fixture("speech/arctic_a0007.wav", sampleRate: 8000)
        let noise8 = try PythonMetricReference.fixture("noise/running_tap.wav", sampleRate: 8000)
        let noisy8 = zip(clean8, noise8).map { $0 + 0.3 * $1 }
        let nb = try score(.pesqNB, clean8, noisy8, rate: 8000)
        #expect(nb == (try PythonMetricReference.values("[pesq.pesq(8000, a, b, 'nb')]", clean8, noisy8, in: folder)[0]))
        #expect { try score(.pesqWB, clean8, noisy8, rate: 8000) } throws: { "\($0)".contains("pesq_wb (P.862.2) is wide-band") }
        // 44.1 kHz: converted to 16 kHz by SEKit's resampler, then the package.
        let clean44 = try PythonMetricReference.fixture("speech/arctic_a0007.wav", sampleRate: 44100)
        let noise44 = try PythonMetricReference.fixture("noise/running_tap.wav", sampleRate: 44100)
        let noisy44 = zip(clean44, noise44).map { $0 + 0.3 * $1 }
        let comparison = MetricComparison(reference: ReferenceSignal(samples: clean44, sampleRate: 44100), processed: noisy44)
        let wb = try MetricRegistry.descriptor(producing: "pesq_wb")!.compute(comparison, workspace: MetricWorkspace())[.pesqWB]!
        #expect(comparison.resampledRates == [16000])
        let a16 = try Resampler.resample(AudioBuffer(samples: clean44, sampleRate: 44100), to: 16000).samples
        let b16 = try Resampler.resample(AudioBuffer(samples: noisy44, sampleRate: 44100), to: 16000).samples
        #expect(wb == (try PythonMetricReference.values("[pesq.pesq(16000, a, b, 'wb')]", a16, b16, in: folder)[0]))
    }

    @Test func theReferenceCodesRefusalsArePerClipErrorsWithTheReason() throws {
        let speech = try PythonMetricReference.fixture("speech/vctk_p287_002.wav")
        // A reference without speech (one tiny sample, the rest zeros): no utterances.
        var empty = [Float](repeating: 0, count: speech.count); empty[0] = 1e-30
        #expect { try score(.pesqWB, empty, speech, rate: 16000) } throws: { "\($0)" == "pesq: no utterances detected" }
        #expect { try score(.pesqWB, Array(speech.prefix(3000)), Array(speech.prefix(3000)), rate: 16000) } throws: {
            "\($0)" == "pesq: the signal is too short"
        }
        #expect { try score(.pesqWB, speech, [Float](repeating: 0, count: speech.count), rate: 16000) } throws: {
            "\($0)".contains("the processed signal is silent")
        }
    }
}
