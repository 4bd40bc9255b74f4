import Foundation

extension RunDiff {
    /// Columns of the CSV form (one row per metric and subset; numbers unrounded).
    public static let csvColumns = ["metric", "subset", "mean_a", "mean_b", "difference", "ci_low", "ci_high", "test",
                                    "method", "statistic", "p", "p_holm", "significant", "n", "n_a", "n_b"]

    /// Footnote lists name at most this many clips in text and Markdown (JSON lists them all).
    static let listedClips = 20

    /// The comparison in `format` (`latex` is not offered for it).
    public func rendered(_ format: ReportFormat) throws -> String {
        switch format {
        case .json: return try ReportJSON.text(self)
        case .csv: return table.rendered(.csv)
        case .table: return text(markdown: false)
        case .markdown, .latex: return text(markdown: true)
        }
    }

    /// The rows as a table (CSV).
    public var table: ReportTable {
        ReportTable(columns: Self.csvColumns, rows: rows.map { row in
            [.text(row.metric), .text(row.subset), .real(row.meanA), .real(row.meanB), .real(row.difference), .real(row.ciLow),
             .real(row.ciHigh), .text(row.test), row.method.map { .text($0) } ?? .null, row.statistic.map { .real($0) } ?? .null,
                     row.p.map { .real($0) } ?? .null,
             row.pHolm.map { .real($0) } ?? .null, .integer(row.significant ? 1 : 0), .integer(Int64(row.n)),
             .integer(Int64(row.nA)), .integer(Int64(row.nB))]
        })
    }

    /// How the numbers were made, in one paragraph.
    var method: String {
        let level = Int((confidence * 100).rounded())
        let test = paired
            ? "two-sided Wilcoxon signed-rank test on the per-clip differences (SciPy's defaults: zero differences dropped; "
                + "exact for up to 50 clips without ties or zeros, all sign flips for up to 13 with them, else the normal approximation)"
            : "two-sided Mann-Whitney U test (SciPy's defaults: exact for small samples without ties, "
                + "else the normal approximation with continuity correction)"
        let interval = paired
            ? "percentile bootstrap of the mean per-clip difference"
            : "percentile bootstrap of mean(B) − mean(A), each run's clips resampled on their own"
        return "B − A, \(paired ? "paired by clip" : "unpaired (different corpora)"): \(level)% CI by \(interval) "
            + "(\(resamples) resamples, seed \(seed)); p by the \(test); "
            + "* = Holm-corrected p < \(alpha) across the \(rows.count) rows shown."
    }

    func text(markdown: Bool) -> String {
        var out = ""
        func heading(_ title: String) { out += markdown ? "\n### \(title)\n\n" : "\n\(title):\n" }
        func table(_ header: [String], _ cells: [[String]], right: [Bool]) {
            out += markdown ? MarkdownTable.render(header: header, rows: cells, rightAligned: right)
                : TextTable.render(header: header, rows: cells, alignment: .numbersRight)
        }
        let sides = [("A", a), ("B", b)].map { label, side in
            [label, side.name.isEmpty ? "(no name)" : side.name, side.id.rawValue, "\(side.clips)", side.corpus.description]
        }
        if markdown { out += "## Run comparison\n\n" }
        table(["", "run", "id", "clips", "scored on"], sides, right: [false, false, false, true, false])
        heading("Parameters that differ")
        if params.isEmpty {
            out += markdown ? "None.\n" : "  none\n"
        } else {
            table(["parameter", "A", "B"], params.map { [$0.key, $0.a ?? "-", $0.b ?? "-"] }, right: [false, false, false])
        }
        heading("Scores")
        out += method + "\n" + (markdown ? "\n" : "")
        var body: [[String]] = []
        for row in rows {
            let decimals = ReportNumber.decimals(metric: row.metric, values: [row.meanA, row.meanB])
            let f = { (v: Double) in ReportNumber.fixed(v, decimals: decimals + 1) }
            let marker = row.significant ? "*" : ""
            let difference = ReportNumber.fixed(row.difference, decimals: decimals + 1, signed: true) + marker
            body.append([row.metric, row.subset, ReportNumber.fixed(row.meanA, decimals: decimals), ReportNumber.fixed(row.meanB,
                                                                                                                       decimals: decimals),
                         markdown && row.significant ? "**\(difference)**" : difference, "[\(f(row.ciLow)), \(f(row.ciHigh))]",
                         ReportNumber.pValue(row.p), ReportNumber.pValue(row.pHolm), paired ? "\(row.n)" : "\(row.nA)/\(row.nB)",
                         row.higherIsBetter.map { $0 ? "higher" : "lower" } ?? "?"])
        }
        if !markdown { out += "\n" }
        table(["metric", "subset", "A", "B", "B − A", "\(Int((confidence * 100).rounded()))% CI", "p", "p (Holm)", paired ? "n" : "n A/B",
               "better"],
              body, right: [false, false, true, true, true, true, true, true, true, false])
        let notes = footnotes
        if !notes.isEmpty {
            heading("Notes")
            out += notes.map { (markdown ? "- " : "  ") + $0 + "\n" }.joined()
        }
        return out
    }

    /// Clips left out of the pairing, named.
    var footnotes: [String] {
        var notes: [String] = []
        func listed(_ ids: [String]) -> String {
            let shown = ids.prefix(Self.listedClips).joined(separator: ", ")
            return ids.count > Self.listedClips ? "\(shown) and \(ids.count - Self.listedClips) more (--format json lists all)" : shown
        }
        if !onlyInA.isEmpty { notes.append("\(onlyInA.count) clip(s) scored only by A, left out: \(listed(onlyInA))") }
        if !onlyInB.isEmpty { notes.append("\(onlyInB.count) clip(s) scored only by B, left out: \(listed(onlyInB))") }
        for (metric, count) in unpairedValues.sorted(by: { $0.key < $1.key }) {
            notes.append("\(metric): \(count) clip(s) scored by both runs lack a finite value in one of them "
                         + "(a failed metric or an infinite SNR), left out")
        }
        return notes
    }
}
