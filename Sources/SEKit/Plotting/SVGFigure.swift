import Foundation

/// Writes a ``Figure`` as an SVG document: rectangles, lines and SVG text (sans-serif, so a
/// viewer draws it with its own fonts), images embedded as base64 PNG. Text is escaped as in the
/// HTML report (``HTML/escape(_:)``: the same five characters matter in XML).
enum SVGFigure {
    /// The document's text.
    /// - Throws: ``PlotError`` when an image cannot be encoded.
    static func document(_ figure: Figure) throws -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + (try element(figure))
    }

    /// The `<svg>` element alone (for a page that shows it inline), with `cssClass` when given.
    static func element(_ figure: Figure, cssClass: String? = nil) throws -> String {
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(figure.width)" height="\(figure.height)" \
        viewBox="0 0 \(figure.width) \(figure.height)" role="img" aria-label="\(HTML.escape(figure.description))"\
        \(cssClass.map { " class=\"\($0)\"" } ?? "")>
        <title>\(HTML.escape(figure.description))</title>
        <rect width="100%" height="100%" fill="#ffffff"/>

        """
        for element in figure.elements { out += try svg(element) + "\n" }
        return out + "</svg>\n"
    }

    static func svg(_ element: Figure.Element) throws -> String {
        switch element {
        case let .fill(r, color):
            return """
                <rect x="\(n(r.x))" y="\(n(r.y))" width="\(n(r.width))" height="\(n(r.height))" \
                fill="\(color.hex)"\(opacity(color))/>
                """
        case let .line(x1, y1, x2, y2, color):
            return """
                <line x1="\(n(x1 + 0.5))" y1="\(n(y1 + 0.5))" x2="\(n(x2 + 0.5))" y2="\(n(y2 + 0.5))" \
                stroke="\(color.hex)" stroke-width="1"\(opacity(color))/>
                """
        case let .text(text, x, y, size, anchor, color, vertical):
            let anchorName = switch anchor { case .start: "start"; case .middle: "middle"; case .end: "end" }
            let rotation = vertical ? " transform=\"rotate(-90 \(n(x)) \(n(y)))\"" : ""
            return """
                <text x="\(n(x))" y="\(n(y))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" \
                font-size="\(n(Double(size.rawValue) * 6.5))" \
                text-anchor="\(anchorName)" dominant-baseline="central" fill="\(color.hex)"\(rotation)>\(HTML.escape(text))</text>
                """
        case let .image(image, r):
            var rgba = [UInt8](repeating: 0, count: image.pixels.count * 4)
            for (i, p) in image.pixels.enumerated() {
                rgba[4 * i] = p.red; rgba[4 * i + 1] = p.green; rgba[4 * i + 2] = p.blue; rgba[4 * i + 3] = p.alpha
            }
            let png: Data
            do { png = try PNGCodec.encode(rgba: rgba, width: image.width, height: image.height) } catch {
                throw PlotError.encoding(reason: error.description)
            }
            return """
                <image x="\(n(r.x))" y="\(n(r.y))" width="\(n(r.width))" height="\(n(r.height))" preserveAspectRatio="none" \
                style="image-rendering:pixelated" href="data:image/png;base64,\(png.base64EncodedString())"/>
                """
        case let .bars(x, baseline, tops, color):
            // One path: up and down each column's bar.
            var d = "M\(n(x)) \(n(baseline))"
            for (i, top) in tops.enumerated() { d += "V\(n(top))H\(n(x + Double(i + 1)))" }
            d += "V\(n(baseline))Z"
            return "<path d=\"\(d)\" fill=\"\(color.hex)\"/>"
        }
    }

    private static func opacity(_ color: PlotColor) -> String {
        color.alpha == 255 ? "" : " fill-opacity=\"\(n(Double(color.alpha) / 255))\" stroke-opacity=\"\(n(Double(color.alpha) / 255))\""
    }

    /// A coordinate with at most two decimals.
    private static func n(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
