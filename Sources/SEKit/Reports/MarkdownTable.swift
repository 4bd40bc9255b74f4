/// GitHub-flavoured Markdown tables (pipes escaped in cells; numbers right-aligned).
public enum MarkdownTable {
    /// The table of `rows` under `header`; `rightAligned[i]` right-aligns column i. Ends in a newline.
    public static func render(header: [String], rows: [[String]], rightAligned: [Bool]) -> String {
        func line(_ cells: [String]) -> String { "| " + cells.map(escape).joined(separator: " | ") + " |\n" }
        let rule = "|" + header.indices.map { rightAligned[$0] ? " ---: |" : " --- |" }.joined() + "\n"
        return line(header) + rule + rows.map(line).joined()
    }

    /// `text` with Markdown table syntax neutralised (`|` escaped, line breaks as spaces).
    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
