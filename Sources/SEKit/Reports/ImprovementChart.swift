import Foundation

/// A bar chart of one metric's mean improvement over the noisy input per input-SNR bucket, with
/// the 95% confidence interval of each mean as a whisker: the chart of `sekit report`, drawn as a
/// ``Figure`` and shown as inline SVG.
struct ImprovementChart {
    /// One bucket: its label (`0 dB`), mean improvement, interval, clips.
    struct Bar {
        var label: String
        var mean: Double
        var low: Double?
        var high: Double?
        var n: Int
    }

    var metric: String
    var unit: String
    var higherIsBetter: Bool
    var bars: [Bar]

    static let width = 540, height = 300
    static let left = 64.0, right = 16.0, top = 40.0, bottom = 52.0

    var figure: Figure {
        let plotWidth = Double(Self.width) - Self.left - Self.right, plotHeight = Double(Self.height) - Self.top - Self.bottom
        // The axis spans the finite values (and 0); an infinite mean (the SNR of a perfect estimate)
        // is a bar to the plot's edge, labelled, and a NaN mean no bar.
        let values: [Double] = bars.flatMap { bar -> [Double] in [bar.mean, bar.low ?? bar.mean, bar.high ?? bar.mean] }
            .filter(\.isFinite) + [0]
        var low: Double = values.min()!, high: Double = values.max()!
        if high - low < 1e-9 { high += 1; low -= 1 }
        let pad = (high - low) * 0.08
        low -= low < 0 ? pad : 0
        high += high > 0 ? pad : 0
        func y(_ v: Double) -> Double {
            guard v.isFinite else { return v > 0 ? Self.top : Self.top + plotHeight }
            return Self.top + (high - v) / (high - low) * plotHeight
        }
        let unitText = unit.isEmpty ? "" : " (\(unit))"
        var figure = Figure(width: Self.width, height: Self.height,
                            description: "Mean \(metric) improvement over the noisy input\(unitText) per input SNR, "
                                + "with 95% confidence intervals: "
                                + bars.map { "\($0.label): \(ReportNumber.fixed($0.mean, decimals: 3))" }.joined(separator: ", "))
        figure.add(.text("\(metric) improvement\(unitText) by input SNR", x: Double(Self.width) / 2, y: 18, size: .small, anchor: .middle,
                         .black))
        let (ticks, decimals) = NiceTicks.ticks(from: low, to: high, count: 5)
        for tick in ticks {
            figure.add(.line(x1: Self.left, y1: y(tick), x2: Self.left + plotWidth, y2: y(tick), .grid))
            figure.add(.text(NiceTicks.label(tick, decimals: decimals), x: Self.left - 6, y: y(tick), size: .small, anchor: .end, .axis))
        }
        figure.add(.line(x1: Self.left, y1: y(0), x2: Self.left + plotWidth, y2: y(0), .axis))
        let slot = plotWidth / Double(max(1, bars.count))
        for (index, bar) in bars.enumerated() {
            let centre = Self.left + slot * (Double(index) + 0.5), half = min(28, slot * 0.32)
            let better = higherIsBetter ? bar.mean >= 0 : bar.mean <= 0
            let colour = better ? Colormap.color(0.62) : PlotColor(200, 82, 60)
            if !bar.mean.isNaN {
                let rect = Figure.Rect(x: centre - half, y: min(y(0), y(bar.mean)), width: 2 * half, height: abs(y(bar.mean) - y(0)))
                figure.add(.fill(rect, colour))
            }
            if !bar.mean.isFinite {
                let edge = bar.mean < 0 ? Self.top + plotHeight - 10 : Self.top + 10
                let text = bar.mean.isNaN ? "nan" : ReportNumber.fixed(bar.mean, decimals: 0, signed: true)
                figure.add(.text(text, x: centre, y: bar.mean.isNaN ? y(0) - 10 : edge, size: .small, anchor: .middle, .black))
            }
            if let lowCI = bar.low, let highCI = bar.high, lowCI.isFinite, highCI.isFinite {
                figure.add(.line(x1: centre, y1: y(highCI), x2: centre, y2: y(lowCI), .black))
                figure.add(.line(x1: centre - 5, y1: y(highCI), x2: centre + 5, y2: y(highCI), .black))
                figure.add(.line(x1: centre - 5, y1: y(lowCI), x2: centre + 5, y2: y(lowCI), .black))
            }
            figure.add(.text(bar.label, x: centre, y: Self.top + plotHeight + 14, size: .small, anchor: .middle, .axis))
            figure.add(.text("n=\(bar.n)", x: centre, y: Self.top + plotHeight + 32, size: .small, anchor: .middle, .grid))
        }
        return figure
    }
}
