import Foundation
import Testing
@testable import SEKit

/// E1, e^(−x)I₀, e^(−x)I₁, M(−½; 1; −v) and the Ephraim–Malah gains against SciPy (`exp1`,
/// `i0e`, `i1e`, `hyp1f1`).
@Suite(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct EnhancementSpecialFunctionsTests {
    /// 0 < x ≤ 60 on a log grid, plus the branch points.
    static let points: [Double] = (0..<400).map { pow(10, -8 + 9.8 * Double($0) / 399) } + [1, 1 + 1e-12, 3.75, 3.75 + 1e-12]

    static let script = """
    import sys, numpy as np
    from scipy.special import exp1, i0e, i1e, hyp1f1
    x = np.fromfile(sys.argv[1], '<f8')
    ksi = np.fromfile(sys.argv[2], '<f8'); gamma = np.fromfile(sys.argv[3], '<f8')
    a = ksi / (1 + ksi); v = a * gamma
    lsa = a * np.exp(0.5 * exp1(v))
    stsa = np.sqrt(np.pi) / 2 * np.sqrt(v) / gamma * ((1 + v) * i0e(v / 2) + v * i1e(v / 2))
    small = x[x <= 1]
    np.concatenate([exp1(x), i0e(x), i1e(x), lsa, stsa, hyp1f1(-0.5, 1, -small)]).astype('<f8').tofile(sys.argv[4])
    """

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
        let e1 = worst(x.map(SpecialFunctions.exponentialIntegralE1), out[0..<x.count])
        let i0 = worst(x.map { SpecialFunctions.scaledBesselI0I1($0, inverseSquareRoot: 1 / $0.squareRoot()).i0 }, out[x.count..<(2 * x.count)])
        let i1 = worst(x.map { SpecialFunctions.scaledBesselI0I1($0, inverseSquareRoot: 1 / $0.squareRoot()).i1 }, out[(2 * x.count)..<(3 * x.count)])
        let g = 3 * x.count
        let lsa = worst(zip(ksi, gamma).map { LogSpectralAmplitudeGain.gain(ksi: $0, gamma: $1) }, out[g..<(g + ksi.count)])
        let stsa = worst(zip(ksi, gamma).map { ShortTimeSpectralAmplitudeGain.gain(ksi: $0, gamma: $1) }, out[(g + ksi.count)..<(g + 2 * ksi.count)])
        let confluent = worst(small.map(SpecialFunctions.confluentHypergeometricMinusHalf), out[(g + 2 * ksi.count)...])
        print("max relative error vs SciPy: E1 \(e1), i0e \(i0), i1e \(i1), M(-1/2; 1; -v) \(confluent), LSA gain \(lsa), STSA gain \(stsa)")
        #expect(confluent < 2e-11)
        #expect(e1 < 3e-8)
        #expect(i0 < 5e-7 && i1 < 5e-7)
        #expect(lsa < 1e-8 && stsa < 3e-7)
    }

    @Test func inlinedExponentialsMatchFoundation() {
        var worst = 0.0
        for i in 0...200_000 {
            let y = -708 + 1417 * Double(i) / 200_000
            worst = max(worst, abs(SpecialFunctions.exponential(y) / exp(y) - 1))
        }
        #expect(worst < 1e-15, "e^y: \(worst)")
        // T(x) = exp(S(x)/2) as one series, against exp of the series S.
        var worstSeries = 0.0
        for i in 0...10_000 {
            let x = Double(i) / 10_000
            worstSeries = max(worstSeries, abs(SpecialFunctions.halfExponentialOfSeries(x) / exp(0.5 * SpecialFunctions.e1Series(x)) - 1))
        }
        #expect(worstSeries < 1e-12, "exp(S/2): \(worstSeries)")
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
