/// Holm's step-down correction for multiple comparisons (Holm 1979, "A simple sequentially
/// rejective multiple test procedure"), as `statsmodels.stats.multitest.multipletests(p,
/// method="holm")` computes it: controls the family-wise error rate under any dependence.
///
/// With the m p-values sorted ascending, p₍₁₎ ≤ ... ≤ p₍ₘ₎, the adjusted value of p₍ᵢ₎ is
/// min(1, max_{j ≤ i} (m − j + 1)·p₍ⱼ₎), reported in the input order. Tied p-values get the same
/// adjusted value.
public enum HolmCorrection {
    /// Holm-adjusted p-values, in the order of `pValues`; [] for no p-values.
    /// - Throws: ``StatisticsError/invalidParameter(name:value:reason:)`` for a value outside
    ///   [0, 1] or NaN (`p-values`).
    /// - Complexity: O(m log m).
    public static func adjusted(_ pValues: [Double]) throws(StatisticsError) -> [Double] {
        let order = try ascendingOrder(pValues)
        let m = pValues.count
        var result = [Double](repeating: 0, count: m)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, pValues[index] * Double(m - rank))
            result[index] = min(1, running)
        }
        return result
    }

    /// Which hypotheses Holm's procedure rejects at family-wise level `alpha`, in the order of
    /// `pValues`: walking up the sorted p-values, p₍ᵢ₎ is rejected while every p₍ⱼ₎, j ≤ i,
    /// satisfies p₍ⱼ₎ ≤ alpha/(m − j + 1) (statsmodels' comparison, to the last bit).
    /// - Throws: as ``adjusted(_:)``, and for `alpha` outside (0, 1).
    public static func rejected(_ pValues: [Double], alpha: Double = 0.05) throws(StatisticsError) -> [Bool] {
        guard alpha > 0 && alpha < 1 else {
            throw StatisticsError.invalidParameter(name: "alpha", value: "\(alpha)", reason: "must be strictly between 0 and 1")
        }
        let order = try ascendingOrder(pValues)
        let m = pValues.count
        var result = [Bool](repeating: false, count: m)
        for (rank, index) in order.enumerated() {
            guard pValues[index] <= alpha / Double(m - rank) else { break }
            result[index] = true
        }
        return result
    }

    /// Indices of `pValues` by ascending value, after checking every value is in [0, 1].
    private static func ascendingOrder(_ pValues: [Double]) throws(StatisticsError) -> [Int] {
        if let bad = pValues.firstIndex(where: { !($0 >= 0 && $0 <= 1) }) {
            throw StatisticsError.invalidParameter(name: "p-values", value: "\(pValues[bad]) at index \(bad)",
                                                   reason: "a p-value must be between 0 and 1")
        }
        return pValues.indices.sorted { pValues[$0] < pValues[$1] }
    }
}
