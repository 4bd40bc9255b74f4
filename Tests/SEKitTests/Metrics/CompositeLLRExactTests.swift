import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The composite's LLR (no per-frame limit) on frames of digital silence, against exact rational
/// arithmetic. The clean signal is Loizou's fixture sentence padded with zeros, as the mixer pads
/// short speech; composite.m adds eps, so a silent frame is eps × Hann window, whose LPC prediction
/// error is ~2e-11 of its energy: rounding in Double decides its LLR (off by up to 0.06), while
/// SEKit's double-double analysis must stay within `tolerance` of the exact value.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct CompositeLLRExactTests {
    /// Largest accepted |SEKit − exact| of a frame's LLR (measured: 0 or 1 ulp, ≤ 1.2e-16; the
    /// final ratio and log are rounded to Double).
    static let tolerance = 1e-13

    /// Python: the frames (float64, one per row of 480) of the clean and processed signal as SEKit
    /// windows them; each lag is an exact Fraction of the Doubles, Levinson-Durbin runs in
    /// Fractions, and log(a_p·R_c·a_pᵀ / a_c·R_c·a_cᵀ) is taken with 40-digit Decimals.
    static let exactScript = """
    import sys, numpy as np
    from fractions import Fraction
    from decimal import Decimal, getcontext
    getcontext().prec = 40
    order = int(sys.argv[3])
    clean = np.fromfile(sys.argv[1], '<f8').reshape(-1, 480); proc = np.fromfile(sys.argv[2], '<f8').reshape(-1, 480)
    def lpc(frame):
        x = [Fraction(float(v)) for v in frame]; n = len(x)
        r = [sum(x[i] * x[i + k] for i in range(n - k)) for k in range(order + 1)]
        a, e = [Fraction(0)] * order, r[0]
        for i in range(order):
            k = (r[i + 1] - sum(a[j] * r[i - j] for j in range(i))) / e
            a = [a[j] - k * a[i - 1 - j] for j in range(i)] + [k] + a[i + 1:]
            e = (1 - k * k) * e
        return r, [Fraction(1)] + [-v for v in a]
    def form(a, r):
        return sum(a[i] * r[abs(i - j)] * a[j] for i in range(len(a)) for j in range(len(a)))
    out = []
    for c, p in zip(clean, proc):
        rc, ac = lpc(c); _, ap = lpc(p)
        ratio = form(ap, rc) / form(ac, rc)
        out.append(float((Decimal(ratio.numerator) / Decimal(ratio.denominator)).ln()).hex())
    print(' '.join(out))
    """

    @Test func silentFramesMatchExactArithmetic() throws {
        let speech = try PythonMetricReference.fixture("speech/vctk_p287_003.wav").map(Double.init)
        let noisy = try PythonMetricReference.fixture("noisy/vctk_p287_003.wav").map(Double.init)
        // 0.6 s of speech, then 0.1 s of digital silence; the noisy signal continues under it.
        let clean = Array(speech.prefix(9600)) + [Double](repeating: 0, count: 1600)
        let processed = Array(noisy.prefix(11200))
        let framing = try LoizouFraming(metric: "llr", reference: clean, processed: processed, sampleRate: 16000)
        #expect(framing.count == 89 && framing.length == 480)
        // A speech frame, the three frames that straddle the edge, and silent frames.
        let frames = [40, 77, 78, 79, 80, 84, 88]
        #expect(frames.filter { f in clean[(f * framing.hop)..<(f * framing.hop + 480)].allSatisfy { $0 == 0 } } == [80, 84, 88])

        let folder = try TemporaryFolder()
        try PythonReference.writeRaw(frames.flatMap { framing.frame($0, of: clean) }, to: folder.file("clean.f64"))
        try PythonReference.writeRaw(frames.flatMap { framing.frame($0, of: processed) }, to: folder.file("processed.f64"))
        let exact = try PythonReference.run(Self.exactScript, arguments: [folder.file("clean.f64").path, folder.file("processed.f64").path,
                                                                          "16"])
            .split(separator: " ").map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines))! }
        #expect(exact.count == frames.count)
        for (f, expected) in zip(frames, exact) {
            let value = LPCMeasures.frameLLR(clean: framing.frame(f, of: clean), processed: framing.frame(f, of: processed), order: 16,
                                             lags: LPCMeasures.accurateAutocorrelation)
            let double = LPCMeasures.frameLLR(clean: framing.frame(f, of: clean), processed: framing.frame(f, of: processed), order: 16,
                                              lags: LPCMeasures.autocorrelation)
            print("frame \(f): LLR \(value), exact \(expected), error \(value - expected) (in Double: \(double - expected))")
            #expect(abs(value - expected) <= Self.tolerance, "frame \(f): \(value) vs exact \(expected)")
        }
    }
}
