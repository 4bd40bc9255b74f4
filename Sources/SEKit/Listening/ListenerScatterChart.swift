import Foundation

/// A scatter plot of the listeners' scores against one objective metric (a point per clip and run,
/// one colour per run) with the P.1401 third-order mapping drawn through them: the chart of the
/// report's "Listeners" section, drawn as a ``Figure`` and shown as inline SVG.
struct ListenerScatterChart {
    var metric: String
    var scale: String
    var points: [ListeningCorrelation.Point]

    static let width = 420, height = 320
    static let left = 64.0, right = 16.0, top = 40.0, bottom = 70.0

    var figure: Figure {
        let plotWidth = Double(Self.width) - Self.left - Self.right
        let plotHeight = Double(Self.height) - Self.top - Self.bottom
        let xs = points.map(\.metric)
        let ys = points.map(\.listeners)
        func range(_ values: [Double]) -> (Double, Double) {
            var low = values.min() ?? 0
            var high = values.max() ?? 1
            if high - low < 1e-9 {
                low -= 1
                high += 1
            }
            let pad = (high - low) * 0.06
            return (low - pad, high + pad)
        }
        let (xLow, xHigh) = range(xs)
        let (yLow, yHigh) = range(ys)
        func x(_ v: Double) -> Double { Self.left + (v - xLow) / (xHigh - xLow) * plotWidth }
        func y(_ v: Double) -> Double { Self.top + (yHigh - v) / (yHigh - yLow) * plotHeight }
        let conditions = points.reduce(into: [String]()) { if !$0.contains($1.condition) { $0.append($1.condition) } }
        var figure = Figure(
            width: Self.width, height: Self.height,
            description: "Listeners (\(scale)) against \(metric): \(points.count) points, one per clip and run ("
                + conditions.joined(separator: ", ") + ")")
        figure.add(.text("listeners (\(scale)) against \(metric)", x: Double(Self.width) / 2, y: 18, size: .small, anchor: .middle, .black))
        let (xTicks, xDecimals) = NiceTicks.ticks(from: xLow, to: xHigh, count: 5)
        for tick in xTicks where tick >= xLow && tick <= xHigh {
            figure.add(.line(x1: x(tick), y1: Self.top, x2: x(tick), y2: Self.top + plotHeight, .grid))
            figure.add(
                .text(
                    NiceTicks.label(tick, decimals: xDecimals), x: x(tick), y: Self.top + plotHeight + 14, size: .small,
                    anchor: .middle, .axis))
        }
        let (yTicks, yDecimals) = NiceTicks.ticks(from: yLow, to: yHigh, count: 5)
        for tick in yTicks where tick >= yLow && tick <= yHigh {
            figure.add(.line(x1: Self.left, y1: y(tick), x2: Self.left + plotWidth, y2: y(tick), .grid))
            figure.add(.text(NiceTicks.label(tick, decimals: yDecimals), x: Self.left - 6, y: y(tick), size: .small, anchor: .end, .axis))
        }
        // The mapping, as short horizontal and vertical steps one pixel column apart.
        if let mapping = try? PolynomialMapping(x: xs, y: ys) {
            var previous: (Double, Double)?
            for column in stride(from: 0.0, through: plotWidth, by: 2) {
                let value = xLow + column / plotWidth * (xHigh - xLow)
                let py = min(max(y(mapping(value)), Self.top), Self.top + plotHeight)
                if let (px, pyPrevious) = previous {
                    figure.add(.line(x1: px, y1: pyPrevious, x2: Self.left + column, y2: pyPrevious, .axis))
                    figure.add(.line(x1: Self.left + column, y1: pyPrevious, x2: Self.left + column, y2: py, .axis))
                }
                previous = (Self.left + column, py)
            }
        }
        for (index, condition) in conditions.enumerated() {
            let colour = Colormap.color(conditions.count == 1 ? 0.5 : 0.1 + 0.8 * Double(index) / Double(conditions.count - 1))
            for point in points where point.condition == condition {
                figure.add(.fill(.init(x: x(point.metric) - 3, y: y(point.listeners) - 3, width: 6, height: 6), colour))
            }
            let legendX = Self.left + Double(index % 3) * plotWidth / 3
            let legendY = Self.top + plotHeight + 36 + Double(index / 3) * 16
            figure.add(.fill(.init(x: legendX, y: legendY - 3, width: 6, height: 6), colour))
            figure.add(.text(condition, x: legendX + 10, y: legendY, size: .small, anchor: .start, .axis))
        }
        return figure
    }
}
