import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct HolmCorrectionTests {
    /// Worked by hand: m = 4, sorted 0.005, 0.01, 0.03, 0.04 → ×4, ×3, ×2, ×1 = 0.02, 0.03, 0.06,
    /// 0.04 → running maximum 0.02, 0.03, 0.06, 0.06. At α = 0.05: 0.005 ≤ 0.05/4 and
    /// 0.01 ≤ 0.05/3 are rejected, 0.03 > 0.05/2 stops the walk (0.04 ≤ 0.05/1 is not reached).
    @Test func handCheckedTable() throws {
        let p = [0.01, 0.04, 0.03, 0.005]
        let adjusted = try HolmCorrection.adjusted(p)
        let expected = [0.03, 0.06, 0.06, 0.02]
        for (a, e) in zip(adjusted, expected) { #expect(abs(a - e) < 1e-15, "\(adjusted)") }
        #expect(try HolmCorrection.rejected(p) == [true, false, false, true])
        #expect(try HolmCorrection.rejected(p, alpha: 0.1) == [true, true, true, true])
    }

    @Test func edgeCases() throws {
        #expect(try HolmCorrection.adjusted([]) == [])
        #expect(try HolmCorrection.rejected([]) == [])
        #expect(try HolmCorrection.adjusted([0.03]) == [0.03])
        #expect(try HolmCorrection.adjusted([0.6, 0.7]) == [1, 1])
        #expect(throws: StatisticsError.self) { try HolmCorrection.adjusted([0.1, .nan]) }
        #expect(throws: StatisticsError.self) { try HolmCorrection.adjusted([1.5]) }
        #expect(throws: StatisticsError.self) { try HolmCorrection.rejected([0.1], alpha: 0) }
    }

    /// Adjusted p-values and rejections at α = 0.05 equal statsmodels' `multipletests(p,
    /// method="holm")` exactly, on vectors with ties, zeros, values near and at 1, and a long one.
    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func matchesStatsmodels() throws {
        var s = SampleSource(seed: 1979)
        let vectors: [[Double]] = [
            [0.01, 0.04, 0.03, 0.005],
            [0.02, 0.02, 0.02, 0.5],
            [0.9, 0.95, 0.99, 1.0, 0.3],
            [0, 0, 0.01, 0.0125, 0.0125, 0.05],
            [0.049, 0.0245, 0.0163, 0.0123],
            [0.001],
            (0..<50).map { _ in s.uniform() },
            (0..<40).map { _ in pow(s.uniform(), 6) },
            (0..<12).map { _ in (s.uniform() * 20).rounded() / 100 },
        ]
        struct Reference: Decodable { let adjusted: [Double]; let reject: [Bool] }
        let references = try JSONReference.run("""
        import sys, json, numpy as np
        from statsmodels.stats.multitest import multipletests
        out = []
        for p in json.load(open(sys.argv[1])):
            reject, adjusted, _, _ = multipletests(np.asarray(p, dtype=float), alpha=0.05, method="holm")
            out.append({'adjusted': [float(v) for v in adjusted], 'reject': [bool(v) for v in reject]})
        print(json.dumps(out))
        """, input: vectors, as: [Reference].self)
        #expect(references.count == vectors.count)
        for (p, reference) in zip(vectors, references) {
            #expect(try HolmCorrection.adjusted(p) == reference.adjusted, "\(p)")
            #expect(try HolmCorrection.rejected(p) == reference.reject, "\(p)")
        }
    }
}
