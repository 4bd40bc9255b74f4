import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The approximations of the decision-directed kernel (``DecisionDirectedKernel/Function``) and
/// the Ephraim–Malah gains against SciPy (`exp1`, `i0e`, `i1e`, `hyp1f1`), over the ranges the
/// enhancers evaluate them on, in both builds of the kernel (AVX2 + FMA where the CPU has it, and
/// the baseline build).
@Suite(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct EnhancementSpecialFunctionsTests {
    /// 0 < x ≤ 60 on a log grid, plus the branch points (v is floored at 1e-12 and γ capped at 40,
    /// so the gains see v in [1e-12, 40] and the Bessel functions v/2).
    static let points: [Double] = (0..<400).map { pow(10, -12 + 13.8 * Double($0) / 399) } + [1, 1 + 1e-12, 3.75, 3.75 + 1e-12]

    static let script = """
    import sys, numpy as np
    from scipy.special import exp1, i0e, i1e, hyp1f1
    x = np.fromfile(sys.argv[1], '<f8')
    ksi = np.fromfile(sys.argv[2], '<f8'); gamma = np.fromfile(sys.argv[3], '<f8')
    a = ksi / (1 + ksi); v = a * gamma
    lsa = a * np.exp(0.5 * exp1(v))
    stsa = np.sqrt(np.pi) / 2 * np.sqrt(v) / gamma * ((1 + v) * i0e(v / 2) + v * i1e(v / 2))
    small = x[x <= 1]
    np.concatenate([np.exp(0.5 * exp1(x)), i0e(x), i1e(x), lsa, stsa, hyp1f1(-0.5, 1, -small)]).astype('<f8').tofile(sys.argv[4])
    """

    /// The kernel's builds on this machine: AVX2 + FMA (when present) and the baseline.
    static var builds: [Bool] { VectorKernels.hasAVX2FMA ? [true, false] : [false] }

    @Test func matchSciPy() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let x = Self.points
        // Gains over ξ from −25 to 40 dB and γ from 1e-3 to 40 (logmmse.m's ranges).
        var ksi = [Double](), gamma = [Double]()
        for i in 0..<40 { for j in 0..<40 {
            ksi.append(pow(10, (-25 + 65 * Double(i) / 39) / 10))
            gamma.append(pow(10, -3 + 4.6 * Double(j) / 39))
        } }
        try PythonReference.writeRaw(x, to: folder.file("x.f64"))
        try PythonReference.writeRaw(ksi, to: folder.file("ksi.f64"))
        try PythonReference.writeRaw(gamma, to: folder.file("gamma.f64"))
        try PythonReference.run(Self.script, arguments: ["x", "ksi", "gamma", "out"].map { folder.file("\($0).f64").path })
        let out = try PythonReference.readRawDoubles(folder.file("out.f64"))
        let small = x.filter { $0 <= 1 }
        try #require(out.count == 3 * x.count + 2 * ksi.count + small.count)

        func worst(_ ours: [Double], _ reference: ArraySlice<Double>) -> Double {
            zip(ours, reference).map { abs($0 / $1 - 1) }.max() ?? .infinity
        }
        let a = ksi.map { $0 / (1 + $0) }
        let v = zip(a, gamma).map { $0 * $1 }
        for avx2 in Self.builds {
            func evaluate(_ function: DecisionDirectedKernel.Function, _ x: [Double], _ y: [Double]? = nil) -> [Double] {
                DecisionDirectedKernel.evaluate(function, x, y, avx2: avx2)
            }
            let halfE1 = worst(evaluate(.exponentialOfHalfE1, x), out[0..<x.count])
            let i0 = worst(evaluate(.scaledBesselI0, x), out[x.count..<(2 * x.count)])
            let i1 = worst(evaluate(.scaledBesselI1, x), out[(2 * x.count)..<(3 * x.count)])
            let g = 3 * x.count
            let lsa = worst(evaluate(.gain(.logSpectralAmplitude), a, v), out[g..<(g + ksi.count)])
            let stsa = worst(evaluate(.gain(.spectralAmplitude), a, v), out[(g + ksi.count)..<(g + 2 * ksi.count)])
            let confluent = worst(evaluate(.confluentHypergeometricMinusHalf, small), out[(g + 2 * ksi.count)...])
            print("max relative error vs SciPy (\(avx2 ? "AVX2 + FMA" : "baseline") build): exp(E1/2) \(halfE1), i0e \(i0), i1e \(i1), "
                  + "M(-1/2; 1; -v) \(confluent), LSA gain \(lsa), STSA gain \(stsa)")
            #expect(confluent < 2e-11)
            #expect(halfE1 < 2e-9)
            #expect(i0 < 5e-7 && i1 < 5e-7)
            #expect(lsa < 1e-8 && stsa < 3e-7)
        }
    }

    @Test func exponentialMatchesFoundation() {
        let y = (0...200_000).map { -708 + 1417 * Double($0) / 200_000 }
        for avx2 in Self.builds {
            let ours = DecisionDirectedKernel.evaluate(.exponential, y, avx2: avx2)
            let worst = zip(ours, y).map { abs($0 / exp($1) - 1) }.max() ?? .infinity
            #expect(worst < 1e-15, "e^y (\(avx2 ? "AVX2 + FMA" : "baseline")): \(worst)")
        }
    }

    @Test func gainsStayFiniteAtZeroPower() {
        for ksi in [1e-3, 0.98, 1e6] {
            #expect(LogSpectralAmplitudeGain.gain(ksi: ksi, gamma: 0).isFinite)
            #expect(ShortTimeSpectralAmplitudeGain.gain(ksi: ksi, gamma: 0).isFinite)
        }
        // Large SNRs tend to the Wiener gain.
        #expect(abs(ShortTimeSpectralAmplitudeGain.gain(ksi: 1e4, gamma: 40) - 1e4 / (1 + 1e4)) < 0.02)
        #expect(abs(WienerGain.gain(ksi: 1, gamma: 3) - 0.5) < 1e-15)
    }
}
