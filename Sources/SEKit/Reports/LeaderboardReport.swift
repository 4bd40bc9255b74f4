import Foundation

extension Leaderboard {
    /// The board in `format`: aligned text, CSV (`NAME_mean`, `NAME_ci95_half`, `NAME_n` per
    /// metric, unrounded), JSON, Markdown (best values bold) or a LaTeX `tabular` with booktabs
    /// rules (best values `\textbf`, `$\pm$` intervals).
    public func rendered(_ format: ReportFormat) throws -> String {
        switch format {
        case .json: return try ReportJSON.text(self)
        case .csv: return table.rendered(.csv)
        case .table:
            return "Leaderboard on the \(corpus), subset \(subset): mean ± half-width of the 95% CI; * best per column; "
                + "mean rank over the metrics (dense ranks)\n" + (categoryLine.map { $0 + "\n" } ?? "") + "\n"
                + TextTable.render(header: header, rows: textRows(best: { $0 + " *" }), alignment: .numbersRight)
                + groupingFooter
        case .markdown:
            return (categoryLine.map { $0 + "\n\n" } ?? "") + MarkdownTable.render(header: header, rows: textRows(best: { "**\($0)**" }),
                                        rightAligned: [false] + groupColumn.map { _ in false }
                                            + Array(repeating: true, count: metrics.count + 1))
        case .latex:
            let rows = self.rows.map { row -> [LatexTable.Cell] in
                [.text(row.name)] + groupCells(row).map { .text($0) } + zip(row.cells, decimals).map { cell, decimals -> LatexTable.Cell in
                    guard let cell else { return .latex("--") }
                    var value = ReportNumber.latexMath(cell.mean, decimals: decimals)
                    if cell.best && !row.isReference { value = "\\mathbf{\(value)}" }
                    let half = cell.ciHalfWidth.map { " \\pm " + ReportNumber.latexMath($0, decimals: decimals) }
                        ?? (cell.n < 2 ? "\\ (n=\(cell.n))" : "")
                    return .latex("$\(value)\(half)$")
                } + [.latex(row.meanRank.map { ReportNumber.fixed($0, decimals: 2) } ?? "--")]
            }
            let afterReference: Set<Int> = self.rows.first?.isReference == true ? [0] : []
            let header: [LatexTable.Cell] = [.text("checkpoint")] + groupColumn.map { .text($0) }
                + zip(metrics, higherIsBetter).map { metric, higher in
                .latex(LatexTable.escape(metric) + (higher.map { $0 ? " $\\uparrow$" : " $\\downarrow$" } ?? ""))
            } + [.text("mean rank")]
            return LatexTable.render(header: header, rows: rows, rulesAfter: afterReference)
        }
    }

    /// The metric columns by category of the board's preset, one line (nil without a preset):
    /// `Columns by category of --metrics urgent-offline: non-intrusive: dnsmos_ovrl; intrusive: ...`.
    var categoryLine: String? {
        guard let preset, let categories else { return nil }
        var groups: [(String, [String])] = []
        for (metric, category) in zip(metrics, categories) {
            let name = category ?? "not in the preset"
            if let last = groups.indices.last, groups[last].0 == name {
                groups[last].1.append(metric)
            } else {
                groups.append((name, [metric]))
            }
        }
        return "Columns by category of --metrics \(preset): "
            + groups.map { "\($0.0): \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
    }

    /// Column titles: checkpoint, the grouping key (a grouped board), one per metric (with its
    /// direction), mean rank.
    var header: [String] {
        ["checkpoint"] + groupColumn + zip(metrics, higherIsBetter).map { metric, higher in
            metric + (higher.map { $0 ? " ↑" : " ↓" } ?? "")
        } + ["mean rank"]
    }

    /// Decimals per metric column.
    var decimals: [Int] { Self.decimals(metrics: metrics, rows: rows) }

    /// Decimals per metric column of a board with `rows` (what it prints, and what ranks compare).
    static func decimals(metrics: [String], rows: [Row]) -> [Int] {
        metrics.indices.map { column in
            ReportNumber.decimals(metric: metrics[column], values: rows.compactMap { $0.cells[column]?.mean })
        }
    }

    /// A cell as `mean ± half-width`, or `mean (n=1)` for a one-clip mean (its interval is undefined).
    static func text(of cell: Cell, decimals: Int) -> String {
        var text = ReportNumber.fixed(cell.mean, decimals: decimals)
        if let half = cell.ciHalfWidth {
            text += " ± " + ReportNumber.fixed(half, decimals: decimals)
        } else if cell.n < 2 {
            text += " (n=\(cell.n))"
        }
        return text
    }

    func textRows(best mark: (String) -> String) -> [[String]] {
        let decimals = self.decimals
        return rows.map { row in
            [row.isReference ? "\(row.name) (input)" : row.name] + groupCells(row) + zip(row.cells, decimals).map { cell, decimals in
                guard let cell else { return "-" }
                let text = Self.text(of: cell, decimals: decimals)
                return cell.best && !row.isReference ? mark(text) : text
            } + [row.meanRank.map { ReportNumber.fixed($0, decimals: 2) } ?? "-"]
        }
    }

    /// One row per board row: name, run id, reference flag, then per metric mean, half-CI, n, best.
    public var table: ReportTable {
        let columns = ["checkpoint", "run_id", "reference"] + (grouping.map { [$0.key, "best_checkpoint"] } ?? [])
            + metrics.flatMap { ["\($0)_mean", "\($0)_ci95_half", "\($0)_n", "\($0)_best"] } + ["mean_rank"]
        return ReportTable(columns: columns, rows: rows.map { row in
            [.text(row.name), .text(row.runID.rawValue), .integer(row.isReference ? 1 : 0)]
                + (grouping.map { [row.group.map { .text($0) } ?? .null, .integer(row.runID == $0.best ? 1 : 0)] } ?? [])
                + row.cells.flatMap { cell -> [TableCell] in
                    guard let cell else { return [.null, .null, .null, .null] }
                    return [.real(cell.mean), cell.ciHalfWidth.map { .real($0) } ?? .null, .integer(Int64(cell.n)),
                            .integer(cell.best ? 1 : 0)]
                } + [row.meanRank.map { .real($0) } ?? .null]
        })
    }
}

extension BestRun {
    /// The answer in `format` (table: two lines; CSV: best and runner-up rows; JSON: all of it).
    public func rendered(_ format: ReportFormat) throws -> String {
        switch format {
        case .json: return try ReportJSON.text(self)
        case .csv: return table.rendered(.csv)
        case .table, .markdown, .latex:
            let decimals = ReportNumber.decimals(metric: metric, values: [best.mean])
            func line(_ label: String, _ entry: Entry) -> String {
                let ci = entry.ci95Low.flatMap { low in entry.ci95High.map { " [" + ReportNumber.fixed(low,
                        decimals: decimals) + ", " + ReportNumber.fixed($0, decimals: decimals) + "]" } } ?? ""
                let interval = ci.isEmpty && entry.n < 2 ? "95% CI undefined" : "95% CI"
                let name = entry.name.isEmpty ? "(no name)" : entry.name
                let mean = ReportNumber.fixed(entry.mean, decimals: decimals)
                return "\(label): \(name)  \(entry.id)  \(metric) = \(mean)\(ci) (\(interval), n = \(entry.n))\n"
            }
            var out = "\(metric) (\(higherIsBetter ? "higher" : "lower") is better), subset \(subset), \(candidates) run(s) compared\n"
            out += line("best", best)
            if let runnerUp {
                out += line("runner-up", runnerUp)
                let difference = ReportNumber.fixed(best.mean - runnerUp.mean, decimals: decimals + 1, signed: true)
                out += "difference of means: \(difference) (`sekit runs diff \(runnerUp.id) \(best.id)` tests it)\n"
            }
            return out
        }
    }

    /// Best and runner-up as rows.
    public var table: ReportTable {
        ReportTable(columns: ["rank", "id", "name", "metric", "subset", "mean", "ci95_low", "ci95_high", "n"],
                    rows: [best, runnerUp].compactMap { $0 }.enumerated().map { rank, entry in
                        [.integer(Int64(rank + 1)), .text(entry.id.rawValue), .text(entry.name), .text(metric), .text(subset),
                         .real(entry.mean),
                         entry.ci95Low.map { .real($0) } ?? .null, entry.ci95High.map { .real($0) } ?? .null, .integer(Int64(entry.n))]
                    })
    }
}
