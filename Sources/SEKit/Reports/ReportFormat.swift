/// Output formats of the comparison reports (`runs diff`, `runs leaderboard`, `runs best`).
public enum ReportFormat: String, Sendable, CaseIterable, Codable {
    /// Aligned text for a terminal.
    case table
    /// The report's main table as CSV, numbers unrounded.
    case csv
    /// The whole report as JSON, numbers unrounded.
    case json
    /// Markdown tables (GitHub-flavoured), for notes and pull requests.
    case markdown
    /// A LaTeX `tabular` with booktabs rules, for papers.
    case latex
}
