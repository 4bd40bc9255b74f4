import Foundation

/// How numbers are printed in human-facing reports (CSV and JSON keep every digit).
public enum ReportNumber {
    /// `value` with `decimals` decimals; `inf`, `-inf`, `nan` spelled out.
    public static func fixed(_ value: Double, decimals: Int, signed: Bool = false) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let text = String(format: "%.\(decimals)f", value)
        return signed && value >= 0 && !text.hasPrefix("-") ? "+" + text : text
    }

    /// `value` for LaTeX math mode: ``fixed(_:decimals:signed:)``, with infinities as `\infty`,
    /// `-\infty` and NaN as `\mathrm{nan}`.
    public static func latexMath(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "\\mathrm{nan}" : (value > 0 ? "\\infty" : "-\\infty") }
        return fixed(value, decimals: decimals)
    }

    /// A p-value: three decimals down to 0.001, then scientific with two digits; `<1e-300` for
    /// one that underflows (a huge effect on thousands of clips); `-` for none.
    public static func pValue(_ p: Double?) -> String {
        guard let p else { return "-" }
        if p < 1e-300 { return "<1e-300" }
        return p >= 0.001 ? String(format: "%.3f", p) : String(format: "%.1e", p)
    }
}
