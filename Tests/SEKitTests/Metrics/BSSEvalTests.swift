import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// SDR, SIR and SAR of one source against `mir_eval.separation.bss_eval_sources` (mir_eval 0.8.2) on
/// real pairs: within 1e-6 dB, the single source's SIR infinite in both.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct BSSEvalTests {
    static let script = """
    import sys, numpy as np, mir_eval
    a = np.fromfile(sys.argv[1], '<f4').astype(np.float64); b = np.fromfile(sys.argv[2], '<f4').astype(np.float64)
    sdr, sir, sar, _ = mir_eval.separation.bss_eval_sources(a[np.newaxis, :], b[np.newaxis, :])
    print(float(sdr[0]).hex(), float(sir[0]).hex(), float(sar[0]).hex())
    """

    func reference(_ a: [Float], _ b: [Float], in folder: TemporaryFolder) throws -> [Double] {
        try PythonReference.run(Self.script, on: a, b, in: folder).split(separator: " ").map { Double(String($0))! }
    }

    @Test func equalsMirEval() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let clean = try PythonMetricReference.fixture("speech/vctk_p287_002.wav")
        let noisy = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav")
        let loud = try PythonMetricReference.fixture("speech/vctk_p287_004.wav")
        let loudNoisy = try PythonMetricReference.fixture("noisy/vctk_p287_004.wav")
        let at8k = try Resampler.resample(AudioBuffer(samples: clean, sampleRate: 16000), to: 8000)
        let lowPassed = Array(try Resampler.resample(at8k, to: 16000).samples.prefix(clean.count))
        let delayed = [Float](repeating: 0, count: 100) + clean.dropLast(100)
        for (name, a, b) in [("VoiceBank-DEMAND p287_002, 9 dB", clean, noisy), ("p287_004, -0.75 dB", loud, loudNoisy),
                             ("band-limited to 4 kHz", clean, lowPassed), ("delayed by 100 samples", clean, delayed),
                             ("noise as the estimate", clean, zip(noisy, clean).map { $0 - $1 })] {
            let ours = try BSSEval.ratios(reference: a, estimate: b)
            let expected = try reference(a, b, in: folder)
            print("BSS Eval \(name): SDR \(ours.sdr) SAR \(ours.sar) dB (mir_eval \(expected))")
            #expect(abs(ours.sdr - expected[0]) < 1e-6, "\(name): SDR \(ours.sdr) vs mir_eval \(expected[0])")
            #expect(ours.sir == .infinity && expected[1] == .infinity, "\(name)")
            #expect(abs(ours.sar - expected[2]) < 1e-6, "\(name): SAR \(ours.sar) vs mir_eval \(expected[2])")
        }
    }

    @Test func silentShortAndMismatchedInputsAreNamedErrors() throws {
        let clip = (0..<2000).map { Float(sin(Double($0) * 0.05)) }
        #expect(throws: MetricError.silentReference(metric: "sdr")) {
            try BSSEval.ratios(reference: [Float](repeating: 0, count: 2000), estimate: clip)
        }
        #expect(throws: MetricError.undefined(metric: "sdr", reason: "the estimate is silent (all zeros)")) {
            try BSSEval.ratios(reference: clip, estimate: [Float](repeating: 0, count: 2000))
        }
        #expect(throws: MetricError.self) { try BSSEval.ratios(reference: Array(clip.prefix(511)), estimate: Array(clip.prefix(511))) }
        #expect(throws: MetricError.lengthMismatch(reference: 2000, processed: 1999)) {
            try BSSEval.ratios(reference: clip, estimate: Array(clip.prefix(1999)))
        }
        // A perfect estimate: no artefact at all.
        #expect(try BSSEval.ratios(reference: clip, estimate: clip).sdr > 200)
    }
}
