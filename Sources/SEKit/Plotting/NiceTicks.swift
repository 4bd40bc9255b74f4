import Foundation

/// Axis ticks at round values (1, 2 or 5 × 10^k apart) and their labels.
enum NiceTicks {
    /// About `count` ticks covering `[low, high]`, and the decimals their labels need; none when
    /// an end is not finite (an axis cannot reach infinity).
    static func ticks(from low: Double, to high: Double, count: Int) -> (values: [Double], decimals: Int) {
        guard low.isFinite, high.isFinite else { return ([], 0) }
        guard high > low, count > 0 else { return ([low], 0) }
        let raw = (high - low) / Double(count)
        guard raw.isFinite, raw > 0 else { return ([low, high], 0) }
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let normalised = raw / magnitude
        let step = (normalised < 1.5 ? 1 : normalised < 3 ? 2 : normalised < 7 ? 5 : 10) * magnitude
        var values: [Double] = []
        var value = (low / step).rounded(.up) * step
        // Bounded: at magnitudes where adding `step` no longer changes the value, the loop still ends.
        while value <= high + step * 1e-9, values.count < 2 * count + 2 {
            values.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return (values, min(20, max(0, Int(-(log10(step)).rounded(.down)))))
    }

    /// `value` with `decimals` decimals.
    static func label(_ value: Double, decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
}
