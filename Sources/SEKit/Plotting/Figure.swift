/// A figure as a list of drawing elements in pixel coordinates (origin top left), rendered to
/// PNG by ``RasterCanvas`` and to SVG by ``SVGFigure``, so both formats show the same layout.
struct Figure {
    var width: Int
    var height: Int
    /// What the figure shows, for `<title>`/alt text.
    var description: String
    var elements: [Element] = []

    /// A rectangle in pixels.
    struct Rect: Equatable {
        var x: Double, y: Double, width: Double, height: Double
        var maxX: Double { x + width }
        var maxY: Double { y + height }
    }

    /// Text size: the bitmap font's scale (glyph pixels per font pixel).
    enum TextSize: Int {
        case small = 2
        case large = 3
    }

    /// Horizontal alignment of text at its x.
    enum TextAnchor { case start, middle, end }

    /// An image of colours (spectrogram, colour bar), rows top to bottom.
    struct Image {
        var width: Int, height: Int
        var pixels: [PlotColor]
    }

    enum Element {
        case fill(Rect, PlotColor)
        /// A horizontal or vertical line, 1 px wide.
        case line(x1: Double, y1: Double, x2: Double, y2: Double, PlotColor)
        /// Text centred vertically at y (reading upwards when `vertical`).
        case text(String, x: Double, y: Double, size: TextSize, anchor: TextAnchor, PlotColor, vertical: Bool = false)
        /// An image stretched to `rect` (nearest pixel).
        case image(Image, Rect)
        /// One bar per pixel column from `baseline` up to each top (y), starting at x.
        case bars(x: Double, baseline: Double, tops: [Double], PlotColor)
    }

    mutating func add(_ element: Element) { elements.append(element) }
}
