/// Average ranks ("midranks") of values sorted in ascending order, as `scipy.stats.rankdata(...,
/// method='average')` assigns them: a group of t equal values at sorted positions i ..< i + t
/// (0-based) shares the rank i + (t + 1)/2.
///
/// Ranks are handled doubled (2·rank = 2i + t + 1 is an integer), so rank sums are exact
/// integers whatever their size and order of summation.
enum TiedRanks {
    /// Calls `body(range, doubledRank)` for each group of equal values of `sorted` (ascending,
    /// no NaN), in order; returns the tie term Σ (t³ − t) over the groups (t = group size),
    /// summed in `Double` as scipy does (exact: every term is an integer below 2⁵³ for any
    /// sample that fits in memory).
    @discardableResult
    static func forEachGroup(_ sorted: [Double], _ body: (Range<Int>, Int) -> Void) -> Double {
        var tieTerm = 0.0
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && sorted[end] == sorted[start] { end += 1 }
            let t = end - start
            body(start..<end, start + end + 1)
            let size = Double(t)
            tieTerm += size * size * size - size
            start = end
        }
        return tieTerm
    }
}
