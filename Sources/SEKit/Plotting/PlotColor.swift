/// An sRGB colour with alpha, 8 bits per channel.
public struct PlotColor: Sendable, Equatable, Hashable {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// `#rrggbb` (SVG, CSS).
    public var hex: String {
        func two(_ v: UInt8) -> String { let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s }
        return "#" + two(red) + two(green) + two(blue)
    }

    static let white = PlotColor(255, 255, 255)
    static let black = PlotColor(0, 0, 0)
    static let axis = PlotColor(60, 60, 60)
    static let grid = PlotColor(200, 200, 200)
    static let panelBackground = PlotColor(246, 246, 246)
    static let labelBackground = PlotColor(0, 0, 0, alpha: 150)
}

/// Viridis (van der Walt & Smith, matplotlib 2015, CC0): perceptually uniform, readable in
/// grey scale and by colour-blind readers. Interpolated linearly between its colours at
/// 0, 1/8, ..., 1 (ample for a spectrogram: neighbouring stops differ by ΔE ≈ 10).
enum Colormap {
    private static let stops: [(Double, Double, Double)] = [
        (0x44, 0x01, 0x54), (0x48, 0x28, 0x78), (0x3E, 0x4A, 0x89), (0x31, 0x68, 0x8E), (0x26, 0x82, 0x8E),
        (0x1F, 0x9E, 0x89), (0x35, 0xB7, 0x79), (0x6D, 0xCD, 0x59), (0xFD, 0xE7, 0x25),
    ]

    /// 256 colours, from the lowest level (index 0) to the highest.
    static let viridis: [PlotColor] = (0..<256).map { i in
        let position = Double(i) / 255 * Double(stops.count - 1)
        let lower = min(Int(position), stops.count - 2)
        let t = position - Double(lower)
        let a = stops[lower], b = stops[lower + 1]
        func mix(_ x: Double, _ y: Double) -> UInt8 { UInt8((x + (y - x) * t).rounded()) }
        return PlotColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// The colour of `fraction` (0 = lowest, 1 = highest; clamped).
    static func color(_ fraction: Double) -> PlotColor {
        guard fraction.isFinite else { return viridis[0] }
        return viridis[Int((min(1, max(0, fraction)) * 255).rounded())]
    }
}
