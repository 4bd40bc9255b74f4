import Foundation

extension Leaderboard {
    /// Checkpoints side by side (`sekit runs leaderboard --group-by params.epoch`): the rows whose
    /// lineage has the parameter come first, in the order of its value (numeric when every value is a
    /// number), and three rows are named: the best checkpoint, the last one and the best classical
    /// baseline, the runs `sekit runs diff` should compare.
    public struct Grouping: Sendable, Codable, Equatable {
        /// The parameter the rows are grouped by (`epoch` for `params.epoch`).
        public var key: String
        /// What picks the best: a metric of the board (its best mean, in its direction) or
        /// `mean_rank` (the lowest mean rank). Ties go to the lowest value of the key (the earliest epoch).
        public var bestBy: String
        /// The best grouped row's score run.
        public var best: RunID?
        /// The grouped row with the highest value of the key (the last epoch).
        public var last: RunID?
        /// The best row, by the same rule, among the rows made by a classical method (an enhance
        /// run of `specsub`, `mmse-stsa`, `logmmse` or `wiener` in its lineage); nil when none.
        public var baseline: RunID?

        /// The rule's name for a board picking by mean rank.
        public static let meanRank = "mean_rank"
    }
}

extension Leaderboard.Grouping {
    /// Orders `rows` (the board's checkpoint rows, in mean-rank order) by the value of `spec`
    /// (`params.KEY`) along each row's lineage in `catalog`, setting each row's `group`, and names the
    /// best, last and baseline rows (see ``Leaderboard/Grouping``).
    /// - Throws: ``ComparisonError`` for a spec other than `params.KEY`, a key no row has, or a `bestBy`
    ///   metric not on the board or of unknown direction.
    static func make(_ rows: inout [Leaderboard.Row], by spec: String, bestBy: String?, metrics: [String],
                     in catalog: Catalog) throws(ComparisonError) -> Leaderboard.Grouping {
        let prefix = "params."
        guard spec.hasPrefix(prefix), spec.count > prefix.count else {
            throw .invalidParameter(name: "group-by", value: spec,
                                    reason: "takes params.KEY: a parameter of the score run or of a run in its lineage (nearest first), "
                                        + "such as params.epoch")
        }
        let key = String(spec.dropFirst(prefix.count))
        var classical = Set<RunID>()
        for index in rows.indices {
            let lineage: [(run: RunRecord, params: [String: String])]
            do { lineage = try catalog.lineageParams(of: rows[index].runID) } catch { throw .catalog(error) }
            for (run, params) in lineage {
                if rows[index].group == nil, let value = params[key] { rows[index].group = value }
                if run.kind == .enhance, let method = params["method"], BlindMethod(rawValue: method) != nil {
                    classical.insert(rows[index].runID)
                }
            }
        }
        guard rows.contains(where: { $0.group != nil }) else {
            throw .invalidParameter(name: "group-by", value: spec,
                                    reason: "no checkpoint on this board has the parameter \(key) in its lineage "
                                        + "(enhance --model records a model's epoch as params.epoch)")
        }
        let numeric = rows.compactMap(\.group).allSatisfy { Double($0) != nil }
        func precedes(_ a: String, _ b: String) -> Bool { numeric ? Double(a)! < Double(b)! : a < b }
        // Grouped rows by value (equal values keep their mean-rank order), then the others as they were.
        let order = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.runID, $0) })
        rows.sort { a, b in
            switch (a.group, b.group) {
            case let (x?, y?) where x != y: return precedes(x, y)
            case (nil, _?): return false
            case (_?, nil): return true
            default: return order[a.runID]! < order[b.runID]!
            }
        }
        let pick = try bestPicker(bestBy, metrics: metrics)
        let grouped = rows.filter { $0.group != nil }
        return Leaderboard.Grouping(key: key, bestBy: bestBy ?? Leaderboard.Grouping.meanRank, best: pick(grouped)?.runID,
                                    last: grouped.last?.runID,
                                    baseline: pick(rows.filter { $0.group == nil && classical.contains($0.runID) })?.runID)
    }

    /// The rule that picks the best of some rows, in their order (ties to the first): the best mean of
    /// `metric`, or the lowest mean rank when it is nil.
    private static func bestPicker(_ metric: String?, metrics: [String]) throws(ComparisonError)
        -> ([Leaderboard.Row]) -> Leaderboard.Row? {
        guard let metric else {
            return { rows in rows.filter { $0.meanRank != nil }.min { $0.meanRank! < $1.meanRank! } }
        }
        guard let column = metrics.firstIndex(of: metric) else {
            throw .invalidParameter(name: "best-by", value: metric,
                                    reason: "not on the board; its metrics: \(metrics.joined(separator: ","))")
        }
        guard let higherIsBetter = MetricRegistry.output(forSeries: metric)?.higherIsBetter else {
            throw .invalidParameter(name: "best-by", value: metric, reason: "SEKit does not know whether higher or lower is better")
        }
        return { rows in
            rows.compactMap { row in row.cells[column].flatMap { $0.mean.isNaN ? nil : (row, $0.mean) } }
                .reduce(nil as (Leaderboard.Row, Double)?) { best, next in
                    guard let best else { return next }
                    return (higherIsBetter ? next.1 > best.1 : next.1 < best.1) ? next : best
                }?.0
        }
    }
}
