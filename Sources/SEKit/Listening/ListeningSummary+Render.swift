import Foundation

extension ListeningSummary {
    /// The conditions as a table (CSV: unrounded): `condition,scale,subset,mean,std,ci95_low,ci95_high,bootstrap_low,bootstrap_high,n`.
    public var table: ReportTable {
        ReportTable(
            columns: ["condition", "scale", "subset", "mean", "std", "ci95_low", "ci95_high", "bootstrap_low", "bootstrap_high", "n"],
            rows: rows.map { row in
                [
                    .text(row.condition), .text(row.scale), .text(row.subset), .real(row.mean), .real(row.std), .real(row.ci95Low),
                    .real(row.ci95High), .real(row.bootstrapLow), .real(row.bootstrapHigh), .integer(Int64(row.n)),
                ]
            })
    }

    /// The text of `sekit listen show`: the conditions (all clips, then per SNR), the raters kept and
    /// excluded with their rules, and the paired comparisons.
    public var text: String {
        let decimals = kind == .mushra ? 1 : 2
        let score = kind == .mushra ? "MUSHRA" : kind == .ccr ? "CMOS" : "MOS"
        var lines = [
            "test \(test) (\(kind.rawValue)): \(raters.filter { !$0.excluded }.count) raters kept, "
                + "\(raters.filter(\.excluded).count) excluded"
        ]
        func f(_ v: Double) -> String { v.isFinite ? ReportNumber.fixed(v, decimals: decimals) : "–" }
        let header = ["condition", "scale", "subset", score, "95% CI (t)", "95% CI (bootstrap)", "n"]
        let body = rows.map { row in
            [
                row.condition, row.scale, row.subset, f(row.mean), "[\(f(row.ci95Low)), \(f(row.ci95High))]",
                "[\(f(row.bootstrapLow)), \(f(row.bootstrapHigh))]", "\(row.n)",
            ]
        }
        lines.append(String(TextTable.render(header: header, rows: body).dropLast()))
        lines.append("raters:")
        for rater in raters { lines.append("  \(rater.rater): " + (rater.rule.map { "excluded, \($0)" } ?? "kept")) }
        if !comparisons.isEmpty {
            lines.append("paired comparisons (B − A per rater and clip; bootstrap 95% CI; Wilcoxon p, Holm-corrected; * below 0.05):")
            let compared = comparisons.map { c in
                [
                    c.scale, c.a, c.b, ReportNumber.fixed(c.difference, decimals: decimals, signed: true),
                    "[\(f(c.ci95Low)), \(f(c.ci95High))]",
                    ReportNumber.pValue(c.p), ReportNumber.pValue(c.pHolm) + (c.significant ? " *" : ""), "\(c.n)",
                ]
            }
            lines.append(
                String(TextTable.render(header: ["scale", "A", "B", "B − A", "95% CI", "p", "p (Holm)", "n"], rows: compared).dropLast()))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ListeningCorrelation {
    /// The rows as a table (CSV: unrounded):
    /// `metric,level,n,pearson,pearson_low,pearson_high,spearman,...,kendall_high,rmse_mapped,rmse_star`.
    public var table: ReportTable {
        func cells(_ e: CorrelationEstimate?) -> [TableCell] {
            guard let e else { return [.null, .null, .null] }
            return [.real(e.r), e.ci95Low.isFinite ? .real(e.ci95Low) : .null, e.ci95High.isFinite ? .real(e.ci95High) : .null]
        }
        return ReportTable(
            columns: [
                "metric", "level", "n", "pearson", "pearson_low", "pearson_high", "spearman", "spearman_low", "spearman_high",
                "kendall", "kendall_low", "kendall_high", "rmse_mapped", "rmse_star",
            ],
            rows: rows.map { row in
                [.text(row.metric), .text(row.level), .integer(Int64(row.n))] + cells(row.pearson) + cells(row.spearman)
                    + cells(row.kendall) + [row.rmseMapped.map(TableCell.real) ?? .null, row.rmseStar.map(TableCell.real) ?? .null]
            })
    }

    /// The text of `sekit listen correlate`.
    public var text: String {
        func f(_ e: CorrelationEstimate?) -> String {
            guard let e else { return "–" }
            let r = ReportNumber.fixed(e.r, decimals: 3)
            return e.ci95Low.isFinite
                ? "\(r) [\(ReportNumber.fixed(e.ci95Low, decimals: 2)), \(ReportNumber.fixed(e.ci95High, decimals: 2))]" : r
        }
        let body = rows.map { row in
            [
                row.metric, row.level, f(row.pearson), f(row.spearman), f(row.kendall),
                row.rmseMapped.map { ReportNumber.fixed($0, decimals: 3) } ?? "–",
                row.rmseStar.map { ReportNumber.fixed($0, decimals: 3) } ?? "–",
                "\(row.n)",
            ]
        }
        return
            "test \(test): listeners (\(scale)) against the objective metrics; 95% Fisher-z intervals; "
                + "RMSE after P.1401's third-order mapping (rmse*: epsilon-insensitive, P.1401 §7.3)\n"
            + TextTable.render(header: ["metric", "level", "Pearson", "Spearman", "Kendall", "RMSE (mapped)", "rmse*", "n"], rows: body)
    }
}
