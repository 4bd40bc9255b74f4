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
}
