import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The Wilcoxon signed-rank and Mann-Whitney U tests against `scipy.stats.wilcoxon(d)` and
/// `scipy.stats.mannwhitneyu(x, y)` with all their defaults (scipy 1.17), one Python process per
/// test: statistics and p-values within 1e-12 (relative for the p-value).
@Suite struct RankTestReferenceTests {
    struct Reference: Decodable { let statistic: Double; let pvalue: Double }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    /// Paired differences covering each branch of scipy's `method='auto'`, with the branch each
    /// must take: sizes 1 ... 500, ties, zeros, the 13- and 50-difference boundaries.
    struct WilcoxonCase { let name: String; let d: [Double]; let method: WilcoxonResult.Method }

    static func wilcoxonCases() -> [WilcoxonCase] {
        var s = SampleSource(seed: 13)
        var cases: [WilcoxonCase] = []
        func add(_ name: String, _ d: [Double], _ method: WilcoxonResult.Method) { cases.append(WilcoxonCase(name: name, d: d,
                                                                                                             method: method)) }
        add("n=5 continuous", s.normals(5, mean: 0.5), .exact)
        add("n=5 all negative", s.normals(5, mean: -10), .exact)
        add("n=10 continuous", s.normals(10, mean: 0.2), .exact)
        add("n=13 ties", s.normals(13, mean: 0.3, step: 0.5), .permutation)
        let distinct: [Double] = (1...11).map { k in Double(k) * (k % 3 == 0 ? -0.1 : 0.1) }
        add("n=13 zeros, no ties", [0, 0] + distinct, .permutation)
        add("n=14 ties", s.normals(14, mean: 0.3, step: 0.5), .normal)
        add("n=14 continuous", s.normals(14, mean: 0.4), .exact)
        add("n=6 opposite signs tied", [-1, 1, 2, -2, 3, 0.5], .permutation)
        add("n=20 zeros", s.normals(20, step: 0.5), .normal)
        add("n=30 all positive", s.normals(30, mean: 100), .exact)
        add("n=50 continuous", s.normals(50, mean: 0.3), .exact)
        add("n=50 all positive", s.normals(50, mean: 100), .exact)
        add("n=51 continuous", s.normals(51, mean: 0.3), .normal)
        add("n=50 one zero", [0] + s.normals(49, mean: 0.3), .normal)
        add("n=49 non-zero + 2 zeros", [0, 0] + s.normals(49, mean: 0.3), .normal)
        add("all zero but one, n=10", [Double](repeating: 0, count: 9) + [0.25], .permutation)
        add("all zero but one, n=30", [Double](repeating: 0, count: 29) + [-0.25], .normal)
        add("all ties, n=20", [Double](repeating: 0.5, count: 20), .normal)
        add("all ties, n=8, both signs", [1, -1, 1, 1, -1, 1, 1, 1], .permutation)
        add("n=12 with infinities (tied |d|)", s.normals(10, mean: 0.5) + [.infinity, -.infinity], .permutation)
        add("n=100 two decimals", s.normals(100, mean: 0.05, sd: 0.1, step: 0.01), .normal)
        add("n=200 large shift", s.normals(200, mean: 2), .normal)
        add("n=500 continuous", s.normals(500, mean: 0.05), .normal)
        add("n=500 one decimal", s.normals(500, mean: 0.05, step: 0.1), .normal)
        add("n=1 positive", [0.7], .exact)
        // A pair scored twice with jitter: differences of order 1e-4 around zero.
        add("n=300 jitter", s.normals(300, sd: 1e-4), .normal)
        return cases
    }

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func wilcoxonMatchesScipy() throws {
        let cases = Self.wilcoxonCases()
        #expect(cases.count >= 20)
        let references = try JSONReference.run("""
        import sys, json, numpy as np, scipy.stats as st
        out = []
        for d in json.load(open(sys.argv[1])):
            r = st.wilcoxon(np.asarray([float(v) for v in d]))
            out.append({'statistic': float(r.statistic), 'pvalue': float(r.pvalue)})
        print(json.dumps(out))
        """, input: cases.map(\.d), encoder: Self.encoder, as: [Reference].self)
        #expect(references.count == cases.count)
        for (c, reference) in zip(cases, references) {
            let name = c.name
            let result = try #require(try WilcoxonSignedRank.test(differences: c.d), "\(name)")
            #expect(result.method == c.method, "\(name): method \(result.method)")
            #expect(abs(result.statistic - reference.statistic) <= 1e-12 * max(1, reference.statistic),
                    "\(name): statistic \(result.statistic) vs scipy \(reference.statistic)")
            #expect(abs(result.pValue - reference.pvalue) <= 1e-12 * reference.pvalue,
                    "\(name): p \(result.pValue) vs scipy \(reference.pvalue)")
            #expect(result.n + result.zeros == c.d.count)
            #expect(result.positiveRankSum + result.negativeRankSum == Double(result.n * (result.n + 1)) / 2)
        }
    }

    /// Two samples covering each branch of scipy's `method='auto'`: exact when one sample has at
    /// most 8 values and nothing is tied, the normal approximation otherwise.
    struct MannWhitneyCase { let name: String; let x: [Double]; let y: [Double]; let method: MannWhitneyResult.Method }

    static func mannWhitneyCases() -> [MannWhitneyCase] {
        var s = SampleSource(seed: 1947)
        var cases: [MannWhitneyCase] = []
        func add(_ name: String, _ x: [Double], _ y: [Double], _ method: MannWhitneyResult.Method) {
            cases.append(MannWhitneyCase(name: name, x: x, y: y, method: method))
        }
        add("1 vs 1", [0.3], [0.1], .exact)
        add("2 vs 3", s.normals(2), s.normals(3), .exact)
        add("3 vs 4", s.normals(3), s.normals(4, mean: 1), .exact)
        add("1 vs 10", s.normals(1), s.normals(10), .exact)
        add("8 vs 8", s.normals(8), s.normals(8, mean: 0.8), .exact)
        add("8 vs 8 separated", s.normals(8), s.normals(8, mean: 100), .exact)
        add("8 vs 9", s.normals(8), s.normals(9, mean: -0.5), .exact)
        add("9 vs 8", s.normals(9), s.normals(8, mean: -0.5), .exact)
        add("8 vs 100", s.normals(8, mean: 0.4), s.normals(100), .exact)
        add("5 vs 300", s.normals(5, mean: 0.4), s.normals(300), .exact)
        add("9 vs 9", s.normals(9), s.normals(9, mean: 0.5), .normal)
        add("5 vs 5 ties", s.normals(5, step: 0.5), s.normals(5, mean: 0.5, step: 0.5), .normal)
        add("all tied 5 vs 5", [Double](repeating: 2, count: 5), [Double](repeating: 2, count: 5), .normal)
        add("7 vs 50 ties", s.normals(7, step: 0.25), s.normals(50, mean: 0.5, step: 0.25), .normal)
        add("10 vs 10 separated", s.normals(10), s.normals(10, mean: 100), .normal)
        add("20 vs 30", s.normals(20), s.normals(30, mean: 0.3), .normal)
        add("50 vs 5", s.normals(50), s.normals(5, mean: 0.3), .exact)
        let low = s.normals(100, sd: 0.7, step: 1).map { min(2, max(0, $0 + 1)) }
        let high = s.normals(100, sd: 0.7, step: 1).map { min(2, max(0, $0 + 1.2)) }
        add("100 vs 100 in {0, 1, 2}", low, high, .normal)
        add("200 vs 300 two decimals", s.normals(200, step: 0.01), s.normals(300, mean: 0.1, step: 0.01), .normal)
        add("500 vs 500", s.normals(500), s.normals(500, mean: 0.1), .normal)
        add("10 vs 12 infinities", s.normals(9) + [.infinity], s.normals(10) + [.infinity, -.infinity], .normal)
        add("1000 vs 1000 shifted", s.normals(1000), s.normals(1000, mean: 0.5), .normal)
        return cases
    }

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func mannWhitneyMatchesScipy() throws {
        let cases = Self.mannWhitneyCases()
        #expect(cases.count >= 20)
        let references = try JSONReference.run("""
        import sys, json, numpy as np, scipy.stats as st
        out = []
        for x, y in json.load(open(sys.argv[1])):
            r = st.mannwhitneyu(np.asarray([float(v) for v in x]), np.asarray([float(v) for v in y]))
            out.append({'statistic': float(r.statistic), 'pvalue': float(r.pvalue)})
        print(json.dumps(out))
        """, input: cases.map { [$0.x, $0.y] }, encoder: Self.encoder, as: [Reference].self)
        #expect(references.count == cases.count)
        for (c, reference) in zip(cases, references) {
            let name = c.name
            let result = try MannWhitneyU.test(c.x, c.y)
            #expect(result.method == c.method, "\(name): method \(result.method)")
            #expect(result.statistic == reference.statistic, "\(name): U \(result.statistic) vs scipy \(reference.statistic)")
            #expect(abs(result.pValue - reference.pvalue) <= 1e-12 * reference.pvalue,
                    "\(name): p \(result.pValue) vs scipy \(reference.pvalue)")
        }
    }

    /// The normal tail behind both approximations agrees with `scipy.special.ndtr` far into the tail.
    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func normalTailMatchesScipy() throws {
        let points = stride(from: -37.0, through: 8, by: 0.37).map { $0 } + [-1e-9, 0, 1e-9]
        let references = try JSONReference.run("""
        import sys, json, scipy.special as sp
        print(json.dumps([float(sp.ndtr(float(z))) for z in json.load(open(sys.argv[1]))]))
        """, input: points, encoder: JSONEncoder(), as: [Double].self)
        for (z, reference) in zip(points, references) {
            #expect(abs(StandardNormal.cdf(z) - reference) <= 1e-13 * reference, "Φ(\(z)) = \(StandardNormal.cdf(z)) vs \(reference)")
        }
    }
}
