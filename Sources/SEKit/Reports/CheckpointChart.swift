import Foundation

/// One metric against the checkpoints of a training run (epoch by epoch): each checkpoint's mean
/// as a point with its 95% confidence interval as a whisker, the best checkpoint highlighted and
/// labelled, and the noisy input and the best classical baseline as horizontal reference lines.
/// The chart of `sekit report`'s checkpoint section, drawn as a ``Figure``.
struct CheckpointChart {
    /// One checkpoint: its label (the epoch), mean and interval.
    struct Point {
        var label: String
        var mean: Double
        var low: Double?
        var high: Double?
        var isBest: Bool
    }

    /// A horizontal reference line (the noisy input, the best baseline).
    struct Reference {
        var label: String
        var mean: Double
    }

    var metric: String
    var unit: String
    /// The grouping key (`epoch`), the x axis's title.
    var key: String
    var points: [Point]
    var references: [Reference]

    static let width = 540, height = 300
    static let left = 64.0, right = 120.0, top = 40.0, bottom = 44.0

    var figure: Figure {
        let plotWidth = Double(Self.width) - Self.left - Self.right, plotHeight = Double(Self.height) - Self.top - Self.bottom
        let values = (points.flatMap { [$0.mean, $0.low ?? $0.mean, $0.high ?? $0.mean] } + references.map(\.mean)).filter(\.isFinite)
        var low = values.min() ?? 0, high = values.max() ?? 1
        if high - low < 1e-9 { high += 1; low -= 1 }
        let pad = (high - low) * 0.08
        low -= pad
        high += pad
        func y(_ v: Double) -> Double {
            guard v.isFinite else { return v > 0 ? Self.top : Self.top + plotHeight }
            return Self.top + (high - v) / (high - low) * plotHeight
        }
        let unitText = unit.isEmpty ? "" : " (\(unit))"
        let best = points.first(where: \.isBest)
        var figure = Figure(width: Self.width, height: Self.height,
                            description: "Mean \(metric)\(unitText) of each checkpoint by \(key), with 95% confidence intervals: "
                                + points.map { "\(key) \($0.label): \(ReportNumber.fixed($0.mean, decimals: 3))" }.joined(separator: ", ")
                                + (best.map { "; best: \(key) \($0.label)" } ?? "")
                                + references.map { "; \($0.label): \(ReportNumber.fixed($0.mean, decimals: 3))" }.joined())
        figure.add(.text("\(metric)\(unitText) by \(key)", x: Double(Self.width) / 2, y: 18, size: .small, anchor: .middle, .black))
        let (ticks, decimals) = NiceTicks.ticks(from: low, to: high, count: 5)
        for tick in ticks where tick >= low && tick <= high {
            figure.add(.line(x1: Self.left, y1: y(tick), x2: Self.left + plotWidth, y2: y(tick), .grid))
            figure.add(.text(NiceTicks.label(tick, decimals: decimals), x: Self.left - 6, y: y(tick), size: .small, anchor: .end, .axis))
        }
        for (index, reference) in references.enumerated() where reference.mean.isFinite {
            let colour = index == 0 ? PlotColor.axis : PlotColor(200, 82, 60)
            figure.add(.line(x1: Self.left, y1: y(reference.mean), x2: Self.left + plotWidth, y2: y(reference.mean), colour))
            figure.add(.text(reference.label, x: Self.left + plotWidth + 6, y: y(reference.mean), size: .small, anchor: .start, colour))
        }
        let slot = plotWidth / Double(max(1, points.count))
        let highlight = Colormap.color(0.62)
        for (index, point) in points.enumerated() {
            let centre = Self.left + slot * (Double(index) + 0.5)
            if let lowCI = point.low, let highCI = point.high, lowCI.isFinite, highCI.isFinite {
                figure.add(.line(x1: centre, y1: y(highCI), x2: centre, y2: y(lowCI), .black))
                figure.add(.line(x1: centre - 4, y1: y(highCI), x2: centre + 4, y2: y(highCI), .black))
                figure.add(.line(x1: centre - 4, y1: y(lowCI), x2: centre + 4, y2: y(lowCI), .black))
            }
            if !point.mean.isNaN {
                let half = point.isBest ? 5.0 : 3.5
                figure.add(.fill(Figure.Rect(x: centre - half, y: y(point.mean) - half, width: 2 * half, height: 2 * half),
                                 point.isBest ? highlight : .black))
            }
            if point.isBest {
                let labelY = max(Self.top - 8, y(point.high ?? point.mean) - 12)
                figure.add(.text("best", x: centre, y: labelY, size: .small, anchor: .middle, highlight))
            }
            figure.add(.text(point.label, x: centre, y: Self.top + plotHeight + 14, size: .small, anchor: .middle, .axis))
        }
        figure.add(.text(key, x: Self.left + plotWidth / 2, y: Self.top + plotHeight + 32, size: .small, anchor: .middle, .axis))
        return figure
    }
}
