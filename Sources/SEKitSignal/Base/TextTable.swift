/// Plain-text tables with aligned columns: the one renderer behind every table SEKit prints.
///
/// A header line, a line of dashes as wide as each column, then one line per row; columns are
/// separated by two spaces and lines carry no trailing spaces.
public enum TextTable {
    /// How cells are placed in their column.
    public enum Alignment: Sendable {
        /// Every cell starts at the column's left edge (listings of ids and paths).
        case left
        /// Cells that look numeric (start with a digit, `-`, `+` or `[`) are right-aligned, except in
        /// the first column; the others are left-aligned (summaries of numbers).
        case numbersRight
    }

    /// The table of `rows` (as many cells as `header`, or fewer) under `header`, ending in a newline.
    public static func render(header: [String], rows: [[String]], alignment: Alignment = .numbersRight) -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            var text = cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return isRightAligned(cell, column: i, alignment) ? pad + cell : cell + pad
            }.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        var out = line(header) + line(widths.map { String(repeating: "-", count: $0) })
        for row in rows { out += line(row) }
        return out
    }

    private static func isRightAligned(_ cell: String, column: Int, _ alignment: Alignment) -> Bool {
        guard alignment == .numbersRight, column > 0, let first = cell.first else { return false }
        return first.isNumber || first == "-" || first == "+" || first == "["
    }
}
