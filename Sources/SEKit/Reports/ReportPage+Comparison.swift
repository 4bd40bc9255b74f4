import Foundation

extension ReportPage {
    /// Several runs: the leaderboard of the runs asked for (every one of them, and no other but the
    /// noisy input as reference; grouped by epoch, with the checkpoint section, when some come from a
    /// model's checkpoints), and the comparison of the best two. Returns the best run (lowest
    /// mean rank). Throws, naming them, when the runs are not all finished score runs on one corpus.
    mutating func comparisonSection(_ runs: [RunRecord]) throws -> RunRecord {
        let grouped = try hasCheckpoints(runs)
        let board = try Leaderboard.make(Leaderboard.Request(corpus: runs[0].id.rawValue, runs: runs.map(\.id),
                                                             groupBy: grouped ? Self.checkpointGroup : nil),
                                         from: catalog)
        body += heading(2, "Leaderboard")
        body += "<p>The \(runs.count) runs compared, scored on the \(HTML.escape(board.corpus.description)), "
            + "subset \(HTML.escape(board.subset)): "
            + "mean ± half-width of the 95% CI; <strong>bold</strong>: best per column; mean rank over the metrics (dense ranks).</p>\n"
        let header = board.header
        let decimals = board.decimals
        let rows = board.rows.map { row -> [HTML.Cell] in
            [HTML.Cell(row.isReference ? "\(row.name) (input)" : row.name)] + board.groupCells(row).map { HTML.Cell($0) }
                + zip(row.cells, decimals).map { cell, decimals in
                guard let cell else { return HTML.Cell("–") }
                return HTML.Cell(Leaderboard.text(of: cell, decimals: decimals), sortValue: cell.mean,
                                 strong: cell.best && !row.isReference)
            } + [Self.number(row.meanRank, decimals: 2)]
        }
        body += HTML.table(id: "leaderboard", caption: "Leaderboard", header: header, rows: rows, sortable: true)
        try checkpointSection(board)
        // The best two, by mean rank (the order of an ungrouped board).
        let ranked = board.rows.filter { !$0.isReference }
            .sorted { ($0.meanRank ?? .infinity, $0.name) < ($1.meanRank ?? .infinity, $1.name) }
        let bestID = ranked.first?.runID ?? runs[0].id
        let best = runs.first { $0.id == bestID } ?? runs[0]
        if ranked.count >= 2 {
            let diff = try RunDiff.compute(ranked[1].runID.rawValue, ranked[0].runID.rawValue, request: RunDiff.Request(subsets: ["all"]),
                                           in: catalog)
            body += heading(2, "The best two: \(ranked[0].name) against \(ranked[1].name)")
            body += diffTables(diff)
        }
        return best
    }

    /// A `runs diff` as the page shows it: its method, the per-metric table (significant rows marked)
    /// and the parameters that differ along the two lineages.
    func diffTables(_ diff: RunDiff, id: String = "diff") -> String {
        var html = "<p>\(HTML.escape(diff.method))</p>\n"
        let rows = diff.rows.map { row -> [HTML.Cell] in
            let d = ReportNumber.decimals(metric: row.metric, values: [row.meanA, row.meanB])
            var difference = Self.number(row.difference, decimals: d + 1, signed: true)
            difference.strong = row.significant
            if row.significant { difference.text += " *" }
            return [HTML.Cell(row.metric), HTML.Cell(row.subset), Self.number(row.meanA, decimals: d), Self.number(row.meanB, decimals: d),
                    difference,
                    HTML.Cell("[\(ReportNumber.fixed(row.ciLow, decimals: d + 1)), \(ReportNumber.fixed(row.ciHigh, decimals: d + 1))]"),
                    HTML.Cell(ReportNumber.pValue(row.p), sortValue: row.p ?? .nan), HTML.Cell(ReportNumber.pValue(row.pHolm),
                                                                                               sortValue: row.pHolm ?? .nan),
                    HTML.Cell("\(row.n)", sortValue: Double(row.n))]
        }
        html += HTML.table(id: id, caption: "A = \(diff.a.name), B = \(diff.b.name); * significant after Holm's correction",
                           header: ["metric", "subset", "A", "B", "B − A", "95% CI", "p", "p (Holm)", "n"], rows: rows)
        if !diff.params.isEmpty {
            html += HTML.table(caption: "Parameters that differ", header: ["parameter", "A", "B"],
                               rows: diff.params.map { [HTML.Cell($0.key), HTML.Cell($0.a ?? "–"), HTML.Cell($0.b ?? "–")] })
        }
        return html
    }
}
