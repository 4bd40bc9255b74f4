import Foundation

extension ReportPage {
    /// One score run: provenance, summary, improvement charts, per-clip table, worst clips.
    mutating func scoreRunSection(_ run: RunRecord, headingLevel h: Int) throws {
        let details = try catalog.runDetails(run.id.rawValue)
        let scores = try RunScores.load(of: run, from: catalog)
        provenance(run, details: details, headingLevel: h)
        summary(details, metrics: scores.metrics, headingLevel: h)
        try charts(details, metrics: scores.metrics, headingLevel: h)
        clipTable(scores, headingLevel: h)
        try worstClips(run, scores: scores, params: Dictionary(uniqueKeysWithValues: details.params.map { ($0.key, $0.valueText) }),
                       headingLevel: h)
    }

    /// Command, lineage and parameters.
    mutating func provenance(_ run: RunRecord, details: Catalog.RunDetails, headingLevel h: Int) {
        body += heading(h, "Provenance")
        let finished = run.finishedAt.map { ISO8601DateFormatter().string(from: $0) } ?? "not finished"
        body += "<p>Run <code>\(HTML.escape(run.id.rawValue))</code> "
            + "(\(HTML.escape(run.kind.rawValue)), \(HTML.escape(run.status.rawValue))), "
        body += "started \(ISO8601DateFormatter().string(from: run.startedAt)), finished \(HTML.escape(finished)), "
            + "on \(HTML.escape(run.host)), sekit \(HTML.escape(run.toolVersion)).</p>\n"
        body += "<p>Command: <code>\(HTML.escape(run.commandLine))</code><br>in <code>\(HTML.escape(run.workingDirectory))</code></p>\n"
        if let lineage = try? catalog.lineage(of: run), lineage.count > 1 {
            body += HTML.table(caption: "Lineage: the run and the runs it descends from", header: ["kind", "name", "id", "command"],
                               rows: lineage.map { [HTML.Cell($0.kind.rawValue), HTML.Cell($0.name), HTML.Cell($0.id.rawValue),
                                                    HTML.Cell($0.commandLine)] })
        }
        body += HTML.table(caption: "Parameters", header: ["parameter", "value"],
                           rows: details.params.map { [HTML.Cell($0.key), HTML.Cell($0.valueText)] })
    }

    /// Mean and 95% CI per metric: enhanced, noisy input, improvement.
    mutating func summary(_ details: Catalog.RunDetails, metrics: [String], headingLevel h: Int) {
        body += heading(h, "Summary")
        let all = Dictionary(details.metrics.filter { $0.subset.isEmpty }.map { ($0.metric, $0) }) { first, _ in first }
        var rows: [[HTML.Cell]] = []
        for metric in metrics {
            let values = [all[metric], all[metric + "_noisy"], all[metric + "_improvement"]]
            let decimals = ReportNumber.decimals(metric: metric, values: values.compactMap { $0?.mean })
            var row = [HTML.Cell(metric + (Metric(rawValue: metric).map { $0.higherIsBetter ? " ↑" : " ↓" } ?? ""))]
            for (index, record) in values.enumerated() {
                guard let record else { row.append(HTML.Cell("–")); continue }
                var text = ReportNumber.fixed(record.mean, decimals: decimals, signed: index == 2)
                if let (low, high) = record.ci95 {
                    text += " [\(ReportNumber.fixed(low, decimals: decimals)), \(ReportNumber.fixed(high, decimals: decimals))]"
                } else if record.n < 2 {
                    text += " [undefined, n = \(record.n)]"
                }
                row.append(HTML.Cell(text, sortValue: record.mean))
            }
            row.append(HTML.Cell("\(all[metric]?.n ?? 0)", sortValue: Double(all[metric]?.n ?? 0)))
            rows.append(row)
        }
        body += HTML.table(caption: "Mean [95% CI, Student t] over all clips", header: ["metric", "enhanced", "noisy input", "improvement",
                                                                                        "n"], rows: rows)
    }

    /// A bar chart per metric: mean improvement per input-SNR subset.
    mutating func charts(_ details: Catalog.RunDetails, metrics: [String], headingLevel h: Int) throws {
        var svgs: [String] = []
        for metric in metrics.prefix(6) {
            let bars = details.metrics.filter { $0.metric == metric + "_improvement" && $0.subset.hasPrefix("snr=") }
                .compactMap { record -> (Double, ImprovementChart.Bar)? in
                    guard let band = SNRSubset(label: record.subset) else { return nil }
                    return (band.lowDB, ImprovementChart.Bar(label: band.chartLabel, mean: record.mean,
                                                             low: record.ci95?.low, high: record.ci95?.high, n: record.n))
                }.sorted { $0.0 < $1.0 }.map(\.1)
            guard !bars.isEmpty else { continue }
            let output = Metric(rawValue: metric)?.output
            let chart = ImprovementChart(metric: metric, unit: output?.unit ?? "", higherIsBetter: output?.higherIsBetter ?? true,
                                         bars: bars)
            svgs.append("<figure>" + (try SVGFigure.element(chart.figure, cssClass: "chart")) + "</figure>")
        }
        guard !svgs.isEmpty else { return }
        body += heading(h, "Improvement over the noisy input by SNR")
        body += "<p>Mean per-clip improvement (enhanced − noisy) per requested input SNR (or 5 dB band of it); "
            + "whiskers: 95% CI (Student t).</p>\n"
        body += "<div class=\"charts\">" + svgs.joined() + "</div>\n"
        figures += svgs.count
    }

    /// Every clip: SNR, split, and per metric the value, the noisy input's and the improvement.
    mutating func clipTable(_ scores: RunScores, headingLevel h: Int) {
        body += heading(h, "Clips")
        var header = ["clip", "SNR (dB)", "split"]
        for metric in scores.metrics { header += [metric, "\(metric) noisy", "\(metric) Δ"] }
        var rows: [[HTML.Cell]] = []
        let decimals = scores.metrics.map { ReportNumber.decimals(metric: $0, values: scores.values[$0]!.compactMap { $0 }) + 1 }
        for (i, clip) in scores.clipIDs.enumerated() {
            var row = [HTML.Cell(Self.shortClipID(clip)), Self.number(scores.snrDB[i], decimals: 1), HTML.Cell(scores.split[i] ?? "")]
            for (m, metric) in scores.metrics.enumerated() {
                let value = scores.values[metric]![i], noisy = scores.noisyValues[metric]?[i] ?? nil
                row += [Self.number(value, decimals: decimals[m]), Self.number(noisy, decimals: decimals[m]),
                        Self.number(value.flatMap { v in noisy.map { v - $0 } }, decimals: decimals[m], signed: true)]
            }
            rows.append(row)
        }
        body += "<p>Click a column header to sort by it (the table is in clip order without JavaScript).</p>\n"
        body += HTML.table(id: "clips", caption: "\(scores.clipIDs.count) clips", header: header, rows: rows, sortable: true)
    }

    /// A catalogue clip id without its mix run (`RUN/clip-0001` → `clip-0001`).
    static func shortClipID(_ id: String) -> String { RunScores.shortClipID(id) }
}
