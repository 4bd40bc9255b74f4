import Foundation

/// Lays out the panels of `sekit plot` as a ``Figure``: panels stacked on one time axis in
/// seconds (ticks under the last panel), spectrograms with a frequency axis in kHz and one shared
/// colour bar in dB, level panels with a dBFS axis, each panel labelled in its top-left corner.
struct PlotLayout {
    /// One panel's content.
    enum Content {
        /// Levels in dB on a `columns × rows` grid (row 0 at the top), up to `nyquistHz`.
        case spectrogram(levelsDB: [Double], columns: Int, rows: Int, nyquistHz: Double)
        /// RMS level per pixel column, dBFS.
        case level(dbfs: [Double])
    }

    struct Panel {
        var label: String
        var content: Content
        /// The signal's duration (s); it spans that share of the time axis.
        var seconds: Double
    }

    static let left = 84.0, right = 118.0, bottom = 58.0, gap = 14.0
    static let spectrogramHeight = 220, levelHeight = 110

    var width: Int
    var title: String?
    var dbRange: Double

    /// Top margin: room for the title.
    var top: Double { title == nil ? 16 : 46 }
    /// Pixels of the time axis.
    var plotWidth: Int { width - Int(Self.left + Self.right) }

    static func height(of content: Content) -> Int {
        if case .level = content { return levelHeight }
        return spectrogramHeight
    }

    /// The figure of `panels` (all spanning `seconds` on the time axis).
    func figure(_ panels: [Panel], seconds: Double) -> Figure {
        let panelHeights = panels.map { Self.height(of: $0.content) }
        let height = Int(top + Self.bottom) + panelHeights.reduce(0, +) + Int(Self.gap) * max(0, panels.count - 1)
        let names = panels.map(\.label).joined(separator: ", ")
        var figure = Figure(width: width, height: height, description: (title.map { $0 + ": " } ?? "") +
                            "\(panels.count) panels (\(names)) over \(NiceTicks.label(seconds, decimals: 2)) s")
        if let title { figure.add(.text(title, x: Double(width) / 2, y: 22, size: .large, anchor: .middle, .black)) }
        let top = (spectrogramMaxDB(panels) ?? 0).rounded(.up)
        var y = self.top
        var spectrogramSpan: (top: Double, bottom: Double)?
        for (index, panel) in panels.enumerated() {
            let rect = Figure.Rect(x: Self.left, y: y, width: Double(plotWidth), height: Double(panelHeights[index]))
            let share = seconds > 0 ? min(1, panel.seconds / seconds) : 1
            draw(panel, in: rect, share: share, colourTop: top, into: &figure)
            if case .spectrogram = panel.content {
                spectrogramSpan = (spectrogramSpan?.top ?? rect.y, rect.maxY)
            }
            if index == panels.count - 1 { timeAxis(under: rect, seconds: seconds, into: &figure) }
            y = rect.maxY + Self.gap
        }
        if let span = spectrogramSpan { colourBar(top: span.top, bottom: span.bottom, maxDB: top, into: &figure) }
        return figure
    }

    /// The highest spectrogram level of any panel, dB, silence (``SignalPicture/silenceDB``) left
    /// out; nil when there is no spectrogram or every cell is silent (the colour scale then ends at 0 dB).
    func spectrogramMaxDB(_ panels: [Panel]) -> Double? {
        panels.compactMap { panel -> Double? in
            if case let .spectrogram(levels, _, _, _) = panel.content { return levels.filter { $0 > SignalPicture.silenceDB }.max() }
            return nil
        }.max()
    }

    private func draw(_ panel: Panel, in rect: Figure.Rect, share: Double, colourTop: Double, into figure: inout Figure) {
        figure.add(.fill(rect, .panelBackground))
        let used = Figure.Rect(x: rect.x, y: rect.y, width: (rect.width * share).rounded(), height: rect.height)
        switch panel.content {
        case let .spectrogram(levels, columns, rows, nyquist):
            let pixels = levels.map { Colormap.color(($0 - (colourTop - dbRange)) / dbRange) }
            figure.add(.image(Figure.Image(width: columns, height: rows, pixels: pixels), used))
            let (ticks, decimals) = NiceTicks.ticks(from: 0, to: nyquist / 1000, count: 5)
            for tick in ticks {
                let ty = rect.maxY - tick * 1000 / nyquist * rect.height
                yTick(ty, label: NiceTicks.label(tick, decimals: decimals), rect: rect, into: &figure)
            }
            figure.add(.text("Frequency (kHz)", x: 18, y: rect.y + rect.height / 2, size: .small, anchor: .middle, .axis, vertical: true))
        case let .level(dbfs):
            let floor = -dbRange
            let tops = dbfs.map { level in used.maxY - (min(0, max(floor, level)) - floor) / dbRange * used.height }
            figure.add(.bars(x: used.x, baseline: used.maxY, tops: tops, Colormap.color(0.35)))
            let (ticks, decimals) = NiceTicks.ticks(from: floor, to: 0, count: 4)
            for tick in ticks {
                let ty = rect.maxY - (tick - floor) / dbRange * rect.height
                figure.add(.line(x1: rect.x, y1: ty, x2: rect.maxX - 1, y2: ty, .grid))
                yTick(ty, label: NiceTicks.label(tick, decimals: decimals), rect: rect, into: &figure)
            }
            figure.add(.text("dBFS", x: 18, y: rect.y + rect.height / 2, size: .small, anchor: .middle, .axis, vertical: true))
        }
        frame(rect, into: &figure)
        let labelWidth = Double(BitmapFont.width(of: panel.label, scale: Figure.TextSize.small.rawValue))
        figure.add(.fill(Figure.Rect(x: rect.x + 4, y: rect.y + 4, width: labelWidth + 10, height: 22), .labelBackground))
        figure.add(.text(panel.label, x: rect.x + 9, y: rect.y + 15, size: .small, anchor: .start, .white))
    }

    private func yTick(_ y: Double, label: String, rect: Figure.Rect, into figure: inout Figure) {
        figure.add(.line(x1: rect.x - 5, y1: y, x2: rect.x - 1, y2: y, .axis))
        // Labels at a panel's edge move inside it, clear of the neighbouring panel's.
        let half = Double(BitmapFont.capHeight * Figure.TextSize.small.rawValue) / 2 + 1
        figure.add(.text(label, x: rect.x - 9, y: min(rect.maxY - half, max(rect.y + half, y)), size: .small, anchor: .end, .axis))
    }

    private func frame(_ rect: Figure.Rect, into figure: inout Figure) {
        figure.add(.line(x1: rect.x - 1, y1: rect.y - 1, x2: rect.maxX, y2: rect.y - 1, .axis))
        figure.add(.line(x1: rect.x - 1, y1: rect.maxY, x2: rect.maxX, y2: rect.maxY, .axis))
        figure.add(.line(x1: rect.x - 1, y1: rect.y - 1, x2: rect.x - 1, y2: rect.maxY, .axis))
        figure.add(.line(x1: rect.maxX, y1: rect.y - 1, x2: rect.maxX, y2: rect.maxY, .axis))
    }

    private func timeAxis(under rect: Figure.Rect, seconds: Double, into figure: inout Figure) {
        // About 10 ticks, fewer when their labels (more decimals on a short span) would touch.
        var count = 10
        var (ticks, decimals) = NiceTicks.ticks(from: 0, to: seconds, count: count)
        while count > 1, !Self.labelsFit(ticks, decimals: decimals, pixelsPerUnit: seconds > 0 ? (rect.width - 1) / seconds : 0) {
            count -= 1
            (ticks, decimals) = NiceTicks.ticks(from: 0, to: seconds, count: count)
        }
        for tick in ticks {
            let x = rect.x + (seconds > 0 ? tick / seconds : 0) * (rect.width - 1)
            figure.add(.line(x1: x, y1: rect.maxY + 1, x2: x, y2: rect.maxY + 5, .axis))
            figure.add(.text(NiceTicks.label(tick, decimals: decimals), x: x, y: rect.maxY + 16, size: .small, anchor: .middle, .axis))
        }
        figure.add(.text("Time (s)", x: rect.x + rect.width / 2, y: rect.maxY + 40, size: .small, anchor: .middle, .axis))
    }

    /// Whether the labels of `ticks`, centred on them (`pixelsPerUnit` apart per unit of value), leave
    /// a gap between neighbours.
    static func labelsFit(_ ticks: [Double], decimals: Int, pixelsPerUnit: Double) -> Bool {
        guard ticks.count > 1 else { return true }
        let scale = Figure.TextSize.small.rawValue
        let widest = ticks.map { BitmapFont.width(of: NiceTicks.label($0, decimals: decimals), scale: scale) }.max()!
        return Double(widest + 12) <= (ticks[1] - ticks[0]) * pixelsPerUnit
    }

    private func colourBar(top: Double, bottom: Double, maxDB: Double, into figure: inout Figure) {
        let bar = Figure.Rect(x: Self.left + Double(plotWidth) + 14, y: top, width: 16, height: bottom - top)
        let steps = 256
        let pixels = (0..<steps).map { Colormap.color(1 - Double($0) / Double(steps - 1)) }
        figure.add(.image(Figure.Image(width: 1, height: steps, pixels: pixels), bar))
        frame(bar, into: &figure)
        let (ticks, decimals) = NiceTicks.ticks(from: maxDB - dbRange, to: maxDB, count: 5)
        for tick in ticks {
            let y = bar.maxY - (tick - (maxDB - dbRange)) / dbRange * bar.height
            figure.add(.line(x1: bar.maxX + 1, y1: y, x2: bar.maxX + 4, y2: y, .axis))
            figure.add(.text(NiceTicks.label(tick, decimals: decimals), x: bar.maxX + 7, y: y, size: .small, anchor: .start, .axis))
        }
        figure.add(.text("dB re full scale", x: Double(width) - 12, y: (top + bottom) / 2, size: .small, anchor: .middle, .axis,
                         vertical: true))
    }
}
