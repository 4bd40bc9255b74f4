import Foundation

/// The page `sekit report` is building: its body so far and what it has shown.
struct ReportPage {
    let request: HTMLReportRequest
    let catalog: Catalog
    /// The page's folder (audio links are relative to it).
    let folder: URL
    var body = ""
    var clipsShown = 0
    var figures = 0
    /// The run the page is mainly about (the best of several).
    var reportedRun: RunID?

    init(request: HTMLReportRequest, catalog: Catalog, folder: URL) {
        self.request = request; self.catalog = catalog; self.folder = folder
    }

    func generatedLine() -> String {
        let stamp = ISO8601DateFormatter().string(from: Date())
        return "<p class=\"meta\">Made by <code>sekit report</code> on \(stamp) "
            + "from the catalogue <code>\(HTML.escape(catalog.url.path))</code>.</p>\n"
    }

    /// `<hN>` of `text`.
    func heading(_ level: Int, _ text: String, id: String? = nil) -> String {
        "<h\(level)\(id.map { " id=\"\(HTML.escape($0))\"" } ?? "")>\(HTML.escape(text))</h\(level)>\n"
    }

    /// A number with the decimals the metric's values need.
    static func number(_ value: Double?, decimals: Int, signed: Bool = false) -> HTML.Cell {
        guard let value else { return HTML.Cell("–", sortValue: .nan) }
        guard value.isFinite else { return HTML.Cell(value > 0 ? "+∞" : "−∞", sortValue: value) }
        return HTML.Cell(ReportNumber.fixed(value, decimals: decimals, signed: signed), sortValue: value)
    }
}
