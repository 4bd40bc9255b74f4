import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct StatisticsTests {
    /// `n` deterministic, unevenly spread values around `offset` (a SplitMix64 stream).
    static func sample(_ n: Int, seed: UInt64, offset: Double = 0) -> [Double] {
        var state = seed
        return (0..<n).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let unit = Double(z >> 11) / Double(1 << 53)
            return offset + 10 * unit * unit - 3
        }
    }

    /// Mean, sample std and the 95% CI of the mean agree with numpy and
    /// `scipy.stats.t.interval(0.95, n - 1, loc=mean, scale=scipy.stats.sem(x))` for n = 2 ... 200.
    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func ci95MatchesScipy() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let sizes = [2, 3, 5, 10, 30, 31, 200]
        var all: [Double] = []
        for (index, n) in sizes.enumerated() { all += Self.sample(n, seed: UInt64(index + 1), offset: index == 5 ? 1e6 : 0) }
        try PythonReference.writeRaw(all, to: folder.file("x.f64"))
        let out = try PythonReference.run("""
        import sys, numpy as np, scipy.stats as st
        x = np.fromfile(sys.argv[1], '<f8'); start = 0
        for n in map(int, sys.argv[2:]):
            v = x[start:start + n]; start += n
            low, high = st.t.interval(0.95, n - 1, loc=v.mean(), scale=st.sem(v))
            print('%.17g %.17g %.17g %.17g' % (v.mean(), v.std(ddof=1), low, high))
        """, arguments: [folder.file("x.f64").path] + sizes.map(String.init))
        let rows = out.split(separator: "\n").map { $0.split(separator: " ").map { Double($0)! } }
        #expect(rows.count == sizes.count)
        var start = 0
        for (n, row) in zip(sizes, rows) {
            let summary = Summary(values: Array(all[start..<(start + n)]))
            start += n
            let scale = max(1, abs(row[0]))
            #expect(summary.n == n)
            #expect(abs(summary.mean - row[0]) <= 1e-12 * scale, "n = \(n): mean \(summary.mean) vs \(row[0])")
            #expect(abs(summary.std - row[1]) <= 1e-9 * max(1, row[1]), "n = \(n): std \(summary.std) vs \(row[1])")
            #expect(abs(summary.ci95Low - row[2]) <= 1e-9 * scale, "n = \(n): ci95 low \(summary.ci95Low) vs \(row[2])")
            #expect(abs(summary.ci95High - row[3]) <= 1e-9 * scale, "n = \(n): ci95 high \(summary.ci95High) vs \(row[3])")
        }
    }

    /// The t quantile behind the interval agrees with `scipy.stats.t.ppf`.
    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func studentQuantileMatchesScipy() throws {
        let degrees: [Double] = [1, 2, 4, 29, 199, 1000]
        let out = try PythonReference.run("""
        import sys, scipy.stats as st
        print(' '.join('%.17g' % st.t.ppf(0.975, float(df)) for df in sys.argv[1:]))
        """, arguments: degrees.map { String($0) })
        let reference = out.split(whereSeparator: \.isWhitespace).map { Double($0)! }
        for (df, expected) in zip(degrees, reference) {
            #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: df) - expected) < 1e-10, "df = \(df)")
        }
    }

    @Test func oneValueHasNoSpreadAndNoneHasNoNumbers() {
        let one = Summary(values: [4.25])
        // One value: no spread, and no interval (t with 0 degrees of freedom: SciPy's t.interval is NaN too).
        #expect(one.n == 1 && one.mean == 4.25 && one.std == 0 && one.ci95Low.isNaN && one.ci95High.isNaN)
        let none = Summary(values: [])
        #expect(none.n == 0 && none.mean.isNaN && none.std.isNaN && none.ci95Low.isNaN && none.ci95High.isNaN)
    }

    @Test func studentTQuantilesMatchTables() {
        // t(0.975) for df = 1, 2, 10, 30, 1000 (standard tables / scipy.stats.t.ppf).
        let expected: [(Double, Double)] = [(1, 12.706204736174698), (2, 4.302652729749464), (10, 2.2281388519862735),
                                            (30, 2.0422724563012373), (1000, 1.9623390808264078)]
        for (df, t) in expected { #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: df) - t) < 1e-9, "df \(df)") }
    }

    @Test func summaryIsStableForLargeOffsets() {
        let values = (0..<1000).map { 1e9 + Double($0 % 10) }
        let s = Summary(values: values)
        #expect(abs(s.mean - (1e9 + 4.5)) < 1e-6)
        #expect(abs(s.std - 2.8737185830263) < 1e-6)
        #expect(s.n == 1000)
        #expect(s.ci95Low < s.mean && s.ci95High > s.mean)
    }

    @Test func perfectEstimatesGiveAnInfiniteMeanNotNaN() {
        // The SNR of a perfect estimate is +inf; a set holding one is summarised as +inf.
        let s = Summary(values: [10, .infinity, 20])
        #expect(s.mean == .infinity && s.ci95Low == .infinity && s.n == 3)
        #expect(Summary(values: [.infinity, -.infinity]).mean.isNaN)
    }
}
