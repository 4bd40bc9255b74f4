/// Uniform draws with a fixed, documented arithmetic, so a seed gives the same corpus on every
/// platform and Swift release (the standard library's `random(in:using:)` does not promise
/// a particular algorithm).
extension RandomNumberGenerator {
    /// A double uniform in [0, 1): the top 53 bits of one 64-bit draw times 2⁻⁵³.
    public mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A double uniform in [low, high] (`low + u·(high − low)`, u from ``nextUnitInterval()``).
    public mutating func nextUniform(_ low: Double, _ high: Double) -> Double {
        low == high ? low : low + nextUnitInterval() * (high - low)
    }

    /// An index uniform in 0..<count (`⌊u·count⌋` of one 64-bit draw, by 128-bit multiply: Lemire's
    /// method without rejection; the bias is below count/2⁶⁴).
    public mutating func nextIndex(below count: Int) -> Int {
        precondition(count > 0, "nextIndex(below:) needs a positive count")
        return Int(next().multipliedFullWidth(by: UInt64(count)).high)
    }
}
