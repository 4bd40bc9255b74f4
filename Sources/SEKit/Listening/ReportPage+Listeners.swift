import Foundation

extension ReportPage {
    /// The "Listeners" section of `sekit report`: for each listening test in the catalogue that rated
    /// one of the reported runs, the conditions' scores with 95% intervals (`listen show`), the
    /// correlations of every metric with the listeners (`listen correlate`) and a scatter plot per metric.
    mutating func listenersSection(_ runs: [RunRecord], headingLevel h: Int) throws {
        let tests = (try? catalog.listeningTests(involving: runs.map(\.id.rawValue))) ?? []
        guard !tests.isEmpty else { return }
        body += heading(h, "Listeners", id: "listeners")
        for name in tests {
            let test = try catalog.listeningTest(name)
            let summary = try ListeningSummary(test)
            guard summary.raters.contains(where: { !$0.excluded }) else { continue }
            let correlation = try ListeningCorrelation(test, catalog: catalog)
            let decimals = test.kind == .mushra ? 1 : 2
            body += heading(h + 1, "Listening test \(name) (\(test.kind.rawValue))")
            let kept = summary.raters.filter { !$0.excluded }.count
            body +=
                "<p>\(kept) raters kept, \(summary.raters.count - kept) excluded by screening. Means over every rating with Student-t "
                + "and bootstrap (clips resampled) 95% intervals; see <code>sekit listen show \(HTML.escape(name))</code>.</p>\n"
            let rows = summary.rows.filter { $0.subset == "all" }.map { row -> [HTML.Cell] in
                [
                    HTML.Cell(row.condition), HTML.Cell(row.scale), Self.number(row.mean, decimals: decimals),
                    HTML.Cell(
                        "[\(ReportNumber.fixed(row.ci95Low, decimals: decimals)), "
                            + "\(ReportNumber.fixed(row.ci95High, decimals: decimals))]"),
                    HTML.Cell(
                        "[\(ReportNumber.fixed(row.bootstrapLow, decimals: decimals)), "
                            + "\(ReportNumber.fixed(row.bootstrapHigh, decimals: decimals))]"),
                    HTML.Cell("\(row.n)", sortValue: Double(row.n)),
                ]
            }
            body += HTML.table(
                caption: "Scores of \(name)", header: ["condition", "scale", "mean", "95% CI (t)", "95% CI (bootstrap)", "n"],
                rows: rows)
            func estimate(_ e: CorrelationEstimate?) -> HTML.Cell {
                guard let e else { return HTML.Cell("–") }
                let interval =
                    e.ci95Low.isFinite
                    ? " [\(ReportNumber.fixed(e.ci95Low, decimals: 2)), \(ReportNumber.fixed(e.ci95High, decimals: 2))]" : ""
                return HTML.Cell(ReportNumber.fixed(e.r, decimals: 3) + interval, sortValue: e.r)
            }
            let correlations = correlation.rows.map { row -> [HTML.Cell] in
                [
                    HTML.Cell(row.metric), HTML.Cell(row.level), estimate(row.pearson), estimate(row.spearman), estimate(row.kendall),
                    Self.number(row.rmseMapped, decimals: 3), Self.number(row.rmseStar, decimals: 3),
                    HTML.Cell("\(row.n)", sortValue: Double(row.n)),
                ]
            }
            body += HTML.table(
                caption: "Listeners against the metrics (95% Fisher-z intervals; RMSE after the P.1401 third-order mapping; "
                    + "rmse*: epsilon-insensitive, P.1401 §7.3)",
                header: ["metric", "level", "Pearson", "Spearman", "Kendall", "RMSE (mapped)", "rmse*", "n"], rows: correlations)
            var svgs: [String] = []
            for metric in correlation.clipPoints.keys.sorted().prefix(6) {
                let chart = ListenerScatterChart(metric: metric, scale: correlation.scale, points: correlation.clipPoints[metric]!)
                svgs.append("<figure>" + (try SVGFigure.element(chart.figure, cssClass: "chart")) + "</figure>")
            }
            if !svgs.isEmpty {
                body += "<p>One point per clip and run; the line is the third-order mapping of ITU-T P.1401.</p>\n"
                body += "<div class=\"charts\">" + svgs.joined() + "</div>\n"
                figures += svgs.count
            }
        }
    }
}
