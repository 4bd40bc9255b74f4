/// Ranks of systems by a score, for leaderboards.
public enum Ranking {
    /// Dense ranks: 1 for the best value, equal values share a rank, and the next distinct value
    /// gets the next integer (values 0.9, 0.8, 0.8, 0.7, higher is better → 1, 2, 2, 3).
    ///
    /// Values are compared exactly (0.0 and −0.0 are equal); ±infinity ranks like any value;
    /// NaN (no score) ranks after every number, all NaNs sharing that last rank.
    /// - Parameter higherIsBetter: the metric's direction (true for STOI, false for LLR, WSS, CD).
    /// - Complexity: O(n log n).
    public static func denseRanks(_ values: [Double], higherIsBetter: Bool) -> [Int] {
        let order = values.indices.sorted { a, b in isBetter(values[a], than: values[b], higherIsBetter: higherIsBetter) }
        var ranks = [Int](repeating: 0, count: values.count)
        var rank = 0
        var previous: Double? = nil
        for index in order {
            let value = values[index]
            if previous == nil || !(value == previous! || (value.isNaN && previous!.isNaN)) { rank += 1 }
            ranks[index] = rank
            previous = value
        }
        return ranks
    }

    /// The mean over columns of each row's dense rank in that column: the "mean rank" of a
    /// leaderboard whose rows are systems and whose columns are metrics.
    /// - Parameters:
    ///   - columns: one array per metric, each with one value per system (all the same length).
    ///   - higherIsBetter: the direction of each metric, one per column.
    /// - Returns: one mean rank per system; [] when there are no columns.
    public static func meanDenseRanks(columns: [[Double]], higherIsBetter: [Bool]) -> [Double] {
        precondition(columns.count == higherIsBetter.count, "one direction per column")
        guard let rows = columns.first?.count else { return [] }
        precondition(columns.allSatisfy { $0.count == rows }, "every column has one value per row")
        var sums = [Int](repeating: 0, count: rows)
        for (column, higher) in zip(columns, higherIsBetter) {
            for (row, rank) in denseRanks(column, higherIsBetter: higher).enumerated() { sums[row] += rank }
        }
        return sums.map { Double($0) / Double(columns.count) }
    }

    /// A strict order: better values first, NaN after everything.
    private static func isBetter(_ a: Double, than b: Double, higherIsBetter: Bool) -> Bool {
        if a.isNaN || b.isNaN { return !a.isNaN && b.isNaN }
        return higherIsBetter ? a > b : a < b
    }
}
