import Foundation

extension ReportPage {
    /// Several runs: the leaderboard of the runs asked for (every one of them, and no other but the
    /// noisy input as reference; grouped by epoch, with the checkpoint section, when some come from a
    /// model's checkpoints; oracle masks marked as upper bounds), and the best real method against the
    /// noisy input (or, without the noisy input's score run, the best two real methods). Returns the
    /// best real method (lowest mean rank). Throws, naming them, when the runs are not all finished score runs on one corpus.
    mutating func comparisonSection(_ runs: [RunRecord]) throws -> RunRecord {
        let grouped = try hasCheckpoints(runs)
        let board = try Leaderboard.make(Leaderboard.Request(corpus: runs[0].id.rawValue, runs: runs.map(\.id),
                                                             groupBy: grouped ? Self.checkpointGroup : nil),
                                         from: catalog)
        body += heading(2, "Leaderboard")
        body += "<p>The \(runs.count) runs compared, scored on the \(HTML.escape(board.corpus.description)), "
            + "subset \(HTML.escape(board.subset)): "
            + "mean ± half-width of the 95% CI; <strong>bold</strong>: best per column; mean rank over the metrics (dense ranks).</p>\n"
        if let line = board.categoryLine { body += "<p>\(HTML.escape(line)).</p>\n" }
        let header = board.header
        let decimals = board.decimals
        // Oracle masks know the clean speech: upper bounds, not competitors.
        var oracles = Set<RunID>()
        for row in board.rows where !row.isReference {
            if try Self.isOracle(row.runID, in: catalog) { oracles.insert(row.runID) }
        }
        let rows = board.rows.map { row -> [HTML.Cell] in
            let label = row.isReference ? "\(row.name) (input)"
                : oracles.contains(row.runID) ? "\(row.name) (oracle: upper bound)" : row.name
            return [HTML.Cell(label)]
                + board.groupCells(row).map { HTML.Cell($0) }
                + zip(row.cells, decimals).map { cell, decimals in
                guard let cell else { return HTML.Cell("–") }
                return HTML.Cell(Leaderboard.text(of: cell, decimals: decimals), sortValue: cell.mean,
                                 strong: cell.best && !row.isReference)
            } + [Self.number(row.meanRank, decimals: 2)]
        }
        body += HTML.table(id: "leaderboard", caption: "Leaderboard", header: header, rows: rows, sortable: true)
        if !board.rankNotes.isEmpty {
            body += "<p>Mean ranks over different metric sets: " + board.rankNotes.map(HTML.escape).joined(separator: "; ") + ".</p>\n"
        }
        try checkpointSection(board)
        // The best real method by mean rank (the order of an ungrouped board; oracles aside) against the noisy
        // input when its score run is on the board, else against the next best real method.
        let ranked = board.rows.filter { !$0.isReference }
            .sorted { ($0.meanRank ?? .infinity, $0.name) < ($1.meanRank ?? .infinity, $1.name) }
        let real = ranked.filter { !oracles.contains($0.runID) }
        let bestID = real.first?.runID ?? ranked.first?.runID ?? runs[0].id
        let best = runs.first { $0.id == bestID } ?? runs[0]
        // The reference row is the noisy input's own score run, or the `_noisy` series of another run (no run to diff).
        let noisyRun = try board.rows.first(where: \.isReference).flatMap { row in
            try catalog.scoreTarget(of: row.runID)?.scored == .noisy ? row : nil
        }
        if let top = real.first, let noisyRun {
            let diff = try RunDiff.compute(noisyRun.runID.rawValue, top.runID.rawValue, request: RunDiff.Request(subsets: ["all"]),
                                           in: catalog)
            body += heading(2, "The best method: \(top.name) against the noisy input")
            body += diffTables(diff)
        } else if real.count >= 2 {
            let diff = try RunDiff.compute(real[1].runID.rawValue, real[0].runID.rawValue, request: RunDiff.Request(subsets: ["all"]),
                                           in: catalog)
            body += heading(2, "The best two: \(real[0].name) against \(real[1].name)")
            body += diffTables(diff)
        }
        if !oracles.isEmpty {
            body += "<p>Oracle masks are computed from the clean speech: they are shown as upper bounds and are not "
                + "compared as methods.</p>\n"
        }
        return best
    }

    /// Whether a score run scored an oracle: the nearest enhance or synthesize run of its lineage is an
    /// oracle mask (`enhance --method oracle-*`) or the resynthesis of a feature file's own target
    /// (`synthesize` whose predictions are the features file itself).
    static func isOracle(_ run: RunID, in catalog: Catalog) throws -> Bool {
        for (record, params) in try catalog.lineageParams(of: run) {
            switch record.kind {
            case .enhance: return params["method"]?.hasPrefix("oracle") == true
            case .synthesize: return params["predictions"] != nil && params["predictions"] == params["features"]
            default: continue
            }
        }
        return false
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
