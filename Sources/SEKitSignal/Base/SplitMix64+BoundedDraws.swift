extension SplitMix64 {
    /// A uniform integer in 0 ..< `bound` (bound ≥ 1), without bias, by Lemire's multiply-shift
    /// with rejection ("Fast random integer generation in an interval", ACM TOMACS 29(1), 2019,
    /// Algorithm 5): the high word of next()·bound, redrawing while the low word is below
    /// 2⁶⁴ mod bound. Spelled out here, rather than the standard library's
    /// `next(upperBound:)`, so that a seed's draws are fixed by this code alone.
    @inline(__always)
    package mutating func nextIndex(below bound: UInt64) -> Int {
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
        }
        return Int(truncatingIfNeeded: product.high)
    }

    /// Shuffles `elements` in place (Fisher-Yates from the last element down, each swap partner drawn
    /// with ``nextIndex(below:)``): the same seed always gives the same order.
    package mutating func shuffle<Element>(_ elements: inout [Element]) {
        for i in stride(from: elements.count - 1, to: 0, by: -1) { elements.swapAt(i, nextIndex(below: UInt64(i + 1))) }
    }
}
