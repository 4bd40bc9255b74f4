/// LaTeX `tabular` environments with `booktabs` rules (`\toprule`, `\midrule`, `\bottomrule`):
/// the document needs `\usepackage{booktabs}`.
public enum LatexTable {
    /// A cell: text to escape, or LaTeX written as is (math, `\textbf`).
    public enum Cell: Sendable, Equatable {
        case text(String)
        case latex(String)
    }

    /// The `tabular` of `rows` under `header`, first column left-aligned and the others
    /// right-aligned; a `\midrule` is drawn after each row index in `rulesAfter`.
    public static func render(header: [Cell], rows: [[Cell]], rulesAfter: Set<Int> = []) -> String {
        var out = "\\begin{tabular}{l" + String(repeating: "r", count: max(0, header.count - 1)) + "}\n\\toprule\n"
        out += line(header) + "\\midrule\n"
        for (index, row) in rows.enumerated() {
            out += line(row)
            if rulesAfter.contains(index) && index < rows.count - 1 { out += "\\midrule\n" }
        }
        return out + "\\bottomrule\n\\end{tabular}\n"
    }

    /// One row: cells joined by `&`, ended by `\\`.
    static func line(_ cells: [Cell]) -> String {
        cells.map { cell in
            switch cell {
            case .text(let text): escape(text)
            case .latex(let code): code
            }
        }.joined(separator: " & ") + " \\\\\n"
    }

    /// `text` with LaTeX's special characters escaped for text mode.
    public static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\textbackslash{}"
            case "&", "%", "$", "#", "_", "{", "}": out += "\\\(character)"
            case "~": out += "\\textasciitilde{}"
            case "^": out += "\\textasciicircum{}"
            case "<": out += "\\textless{}"
            case ">": out += "\\textgreater{}"
            default: out.append(character)
            }
        }
        return out
    }
}
