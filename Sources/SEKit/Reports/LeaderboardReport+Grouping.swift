import Foundation

extension Leaderboard {
    /// The grouping key's column title (`epoch`), or nothing for an ungrouped board.
    var groupColumn: [String] { grouping.map { [$0.key] } ?? [] }

    /// A row's cell in the grouping column: the key's value, `(best)` after the best checkpoint's;
    /// nothing for an ungrouped board.
    func groupCells(_ row: Row) -> [String] {
        guard let grouping else { return [] }
        guard let value = row.group else { return ["-"] }
        return [row.runID == grouping.best ? "\(value) (best)" : value]
    }

    /// The row of a run on the board.
    func row(of run: RunID?) -> Row? { run.flatMap { run in rows.first { $0.runID == run } } }

    /// After a grouped board's table: the best checkpoint, the last, the best classical baseline,
    /// and the `sekit runs diff` commands that test the best against the other two.
    var groupingFooter: String {
        guard let grouping, let best = row(of: grouping.best) else { return "" }
        let rule = grouping.bestBy == Grouping.meanRank ? "the lowest mean rank" : "the best mean \(grouping.bestBy)"
        var text = "\nbest checkpoint (\(rule)): \(best.name), \(grouping.key) \(best.group ?? "-")\n"
        var comparisons: [String] = []
        if let last = row(of: grouping.last) {
            text += "last checkpoint: \(last.name), \(grouping.key) \(last.group ?? "-")\n"
            if last.runID != best.runID { comparisons.append("sekit runs diff \(last.runID) \(best.runID)") }
        }
        if let baseline = row(of: grouping.baseline) {
            text += "best classical baseline: \(baseline.name)\n"
            comparisons.append("sekit runs diff \(baseline.runID) \(best.runID)")
        }
        if !comparisons.isEmpty { text += "tested by: " + comparisons.joined(separator: "\n           ") + "\n" }
        return text
    }
}
