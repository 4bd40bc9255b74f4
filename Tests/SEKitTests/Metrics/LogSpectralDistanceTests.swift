import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The log-spectral distance against a numpy reference written here from its definition.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct LogSpectralDistanceTests {
    static let script = """
    import sys, numpy as np
    a = np.fromfile(sys.argv[1], '<f4').astype(np.float64); b = np.fromfile(sys.argv[2], '<f4').astype(np.float64)
    n, hop, floor = 2048, 512, 1e-10
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)  # periodic Hann
    starts = range(0, len(a) - n + 1, hop)
    power = lambda x: np.abs(np.fft.rfft(np.stack([x[s:s + n] * window for s in starts]), axis=1)) ** 2
    difference = 10 * np.log10(power(a) + floor) - 10 * np.log10(power(b) + floor)
    print(np.mean(np.sqrt(np.mean(difference ** 2, axis=1))).hex())
    """

    func reference(_ a: [Float], _ b: [Float], in folder: TemporaryFolder) throws -> Double {
        Double(try PythonReference.run(Self.script, on: a, b, in: folder))!
    }

    @Test func equalsTheNumpyReference() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let clean = try PythonMetricReference.fixture("speech/vctk_p287_002.wav")
        let noisy = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav")
        let loud = try PythonMetricReference.fixture("speech/vctk_p287_004.wav")
        let loudNoisy = try PythonMetricReference.fixture("noisy/vctk_p287_004.wav")
        let at8k = try Resampler.resample(AudioBuffer(samples: clean, sampleRate: 16000), to: 8000)
        let lowPassed = try Resampler.resample(at8k, to: 16000).samples
        for (name, a, b) in [("VoiceBank-DEMAND p287_002, 9 dB", clean, noisy), ("p287_004, -0.75 dB", loud, loudNoisy),
                             ("band-limited to 4 kHz", clean, Array(lowPassed.prefix(clean.count)))] {
            let ours = try LogSpectralDistance.compute(reference: a, processed: b)
            let expected = try reference(a, b, in: folder)
            print("LSD \(name): \(ours) dB (numpy \(expected))")
            #expect(abs(ours - expected) < 1e-9 * max(1, expected), "\(name): \(ours) vs numpy \(expected)")
        }
        #expect(try LogSpectralDistance.compute(reference: clean, processed: clean) == 0)
    }

    @Test func aClipShorterThanOneFrameIsAnError() {
        let short = [Float](repeating: 0.1, count: 2047)
        #expect(throws: MetricError.tooShort(metric: "lsd", samples: 2047, reason: "needs at least one 2048-sample frame")) {
            try LogSpectralDistance.compute(reference: short, processed: short)
        }
    }
}
