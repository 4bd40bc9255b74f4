/// Columns and rows of one table of a report, rendered in any `TableFormat` through
/// `TableWriter` (`sekit ... --format csv` prints a report's main table this way).
public struct ReportTable: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[TableCell]]

    public init(columns: [String], rows: [[TableCell]]) {
        self.columns = columns
        self.rows = rows
    }

    /// The table as text in `format` (aligned columns, CSV with a header line, or a JSON array).
    public func rendered(_ format: TableFormat) -> String {
        var text = ""
        var writer = TableWriter(columns: columns, format: format) { text += $0 }
        rows.forEach { writer.append($0) }
        writer.finish()
        return text
    }
}
