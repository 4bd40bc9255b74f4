import Foundation

extension ReportPage {
    /// The parameter a report groups checkpoints by: the epoch `enhance --model` records from a model.
    static let checkpointGroup = "params.epoch"

    /// Whether any of `runs` descends from a checkpoint with an epoch (a model's enhance run).
    func hasCheckpoints(_ runs: [RunRecord]) throws -> Bool {
        for run in runs where try catalog.lineageParam("epoch", of: run.id) != nil { return true }
        return false
    }

    /// Checkpoints side by side (a board grouped by epoch): one chart per metric of each
    /// checkpoint's mean and 95% interval by epoch, the best marked, the noisy input and the best
    /// classical baseline as reference lines; then `runs diff` of the best checkpoint against the
    /// last one and against the best classical baseline.
    mutating func checkpointSection(_ board: Leaderboard) throws {
        guard let grouping = board.grouping, let best = board.row(of: grouping.best) else { return }
        let checkpoints = board.rows.filter { $0.group != nil }
        let baseline = board.row(of: grouping.baseline)
        let rule = grouping.bestBy == Leaderboard.Grouping.meanRank ? "the lowest mean rank" : "the best mean \(grouping.bestBy)"
        body += heading(2, "Checkpoints by \(grouping.key)", id: "checkpoints")
        body += "<p>\(checkpoints.count) checkpoints. Best by \(HTML.escape(rule)): <strong>\(HTML.escape(best.name))</strong> "
            + "(\(HTML.escape(grouping.key)) \(HTML.escape(best.group ?? "–")))"
            + (board.row(of: grouping.last).map { "; last: \(HTML.escape($0.name))" } ?? "")
            + (baseline.map { "; best classical baseline: \(HTML.escape($0.name))" } ?? "; no classical baseline among the runs")
            + ". Points: mean; whiskers: 95% CI.</p>\n"
        var references: [(label: String, row: Leaderboard.Row)] = board.rows.first(where: \.isReference).map { [("noisy", $0)] } ?? []
        if let baseline { references.append((String(baseline.name.prefix(14)), baseline)) }
        var svgs: [String] = []
        for (column, metric) in board.metrics.enumerated() {
            let points = checkpoints.compactMap { row -> CheckpointChart.Point? in
                guard let cell = row.cells[column] else { return nil }
                return CheckpointChart.Point(label: row.group ?? "", mean: cell.mean, low: cell.ciHalfWidth.map { cell.mean - $0 },
                                             high: cell.ciHalfWidth.map { cell.mean + $0 }, isBest: row.runID == best.runID)
            }
            guard !points.isEmpty else { continue }
            let chart = CheckpointChart(metric: metric, unit: MetricRegistry.output(forSeries: metric)?.unit ?? "", key: grouping.key,
                                        points: points,
                                        references: references.compactMap { reference in
                                            reference.row.cells[column].map {
                                                CheckpointChart.Reference(label: reference.label, mean: $0.mean)
                                            }
                                        })
            svgs.append("<figure>" + (try SVGFigure.element(chart.figure, cssClass: "chart")) + "</figure>")
        }
        body += "<div class=\"charts\">\n" + svgs.joined(separator: "\n") + "\n</div>\n"
        figures += svgs.count
        for (other, title, id) in [(board.row(of: grouping.last), "the last checkpoint", "diff-last"),
                                   (baseline, "the best classical baseline", "diff-baseline")] {
            guard let other, other.runID != best.runID else { continue }
            let diff = try RunDiff.compute(other.runID.rawValue, best.runID.rawValue, request: RunDiff.Request(subsets: ["all"]),
                                           in: catalog)
            body += heading(3, "The best checkpoint (\(best.name)) against \(title) (\(other.name))")
            body += diffTables(diff, id: id)
        }
    }
}
