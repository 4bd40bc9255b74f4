/// Draws a ``Figure`` into 8-bit RGBA pixels (rows top to bottom), with the bitmap font for text.
struct RasterCanvas {
    let width: Int, height: Int
    private(set) var rgba: [UInt8]

    init(width: Int, height: Int, background: PlotColor = .white) {
        self.width = width; self.height = height
        rgba = [UInt8](repeating: 0, count: width * height * 4)
        fill(x0: 0, y0: 0, x1: width, y1: height, background)
    }

    /// The figure's pixels.
    static func render(_ figure: Figure) -> RasterCanvas {
        var canvas = RasterCanvas(width: figure.width, height: figure.height)
        for element in figure.elements { canvas.draw(element) }
        return canvas
    }

    mutating func draw(_ element: Figure.Element) {
        switch element {
        case let .fill(r, color):
            fill(x0: Int(r.x.rounded()), y0: Int(r.y.rounded()), x1: Int(r.maxX.rounded()), y1: Int(r.maxY.rounded()), color)
        case let .line(x1, y1, x2, y2, color):
            let (ax, ay, bx, by) = (Int(x1.rounded(.down)), Int(y1.rounded(.down)), Int(x2.rounded(.down)), Int(y2.rounded(.down)))
            fill(x0: min(ax, bx), y0: min(ay, by), x1: max(ax, bx) + 1, y1: max(ay, by) + 1, color)
        case let .text(text, x, y, size, anchor, color, vertical):
            drawText(text, x: x, y: y, scale: size.rawValue, anchor: anchor, color: color, vertical: vertical)
        case let .image(image, r):
            let x0 = Int(r.x.rounded()), y0 = Int(r.y.rounded()), w = Int(r.width.rounded()), h = Int(r.height.rounded())
            guard w > 0, h > 0 else { return }
            for row in 0..<h {
                let sourceRow = min(image.height - 1, row * image.height / h)
                for column in 0..<w {
                    let sourceColumn = min(image.width - 1, column * image.width / w)
                    set(x0 + column, y0 + row, image.pixels[sourceRow * image.width + sourceColumn])
                }
            }
        case let .bars(x, baseline, tops, color):
            let x0 = Int(x.rounded()), base = Int(baseline.rounded())
            for (i, top) in tops.enumerated() { fill(x0: x0 + i, y0: Int(top.rounded()), x1: x0 + i + 1, y1: base, color) }
        }
    }

    /// Fills `[x0, x1) × [y0, y1)`, clipped to the canvas, blending by the colour's alpha.
    mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, _ color: PlotColor) {
        let left = max(0, x0), right = min(width, x1), top = max(0, y0), bottom = min(height, y1)
        guard left < right, top < bottom else { return }
        for y in top..<bottom { for x in left..<right { set(x, y, color) } }
    }

    /// Sets one pixel (blended by alpha), ignoring pixels off the canvas.
    mutating func set(_ x: Int, _ y: Int, _ color: PlotColor) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let i = (y * width + x) * 4
        if color.alpha == 255 {
            rgba[i] = color.red; rgba[i + 1] = color.green; rgba[i + 2] = color.blue; rgba[i + 3] = 255
            return
        }
        let a = Int(color.alpha), keep = 255 - a
        rgba[i] = UInt8((Int(color.red) * a + Int(rgba[i]) * keep) / 255)
        rgba[i + 1] = UInt8((Int(color.green) * a + Int(rgba[i + 1]) * keep) / 255)
        rgba[i + 2] = UInt8((Int(color.blue) * a + Int(rgba[i + 2]) * keep) / 255)
        rgba[i + 3] = 255
    }

    /// Draws `text` with the bitmap font; y is the vertical centre of capitals (the horizontal
    /// centre of the column when `vertical`, where the text reads upwards).
    mutating func drawText(_ text: String, x: Double, y: Double, scale: Int, anchor: Figure.TextAnchor, color: PlotColor, vertical: Bool) {
        let length = Double(BitmapFont.width(of: text, scale: scale))
        let offset: Double = switch anchor {
        case .start: 0
        case .middle: -length / 2
        case .end: -length
        }
        let half = Double(BitmapFont.capHeight * scale) / 2
        for (index, character) in text.enumerated() {
            let rows = BitmapFont.glyph(character)
            let along = offset + Double(index * BitmapFont.advance * scale)
            for (row, bits) in rows.enumerated() where bits != 0 {
                for column in 0..<5 where bits & (0x10 >> UInt8(column)) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let u = along + Double(column * scale + dx), v = Double(row * scale + dy) - half
                            // Upright: (x + u, y + v); reading upwards: rotated 90° anticlockwise.
                            let px = vertical ? x + v : x + u, py = vertical ? y - u : y + v
                            set(Int(px.rounded(.down)), Int(py.rounded(.down)), color)
                        }
                    }
                }
            }
        }
    }
}
