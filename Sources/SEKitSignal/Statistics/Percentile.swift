/// Percentiles as `numpy.percentile(a, q)` computes them by default (`method='linear'`, type 7
/// of Hyndman & Fan 1996), to the last bit.
enum Percentile {
    /// The `q`-th percentile (0 ... 100) of `sorted` (ascending, not empty, no NaN): at the
    /// virtual index h = (n − 1)·q/100, between the values a = sorted[⌊h⌋] and b = sorted[⌊h⌋ + 1]
    /// with weight g = h − ⌊h⌋, as numpy's `_lerp`: a + (b − a)·g for g < ½, b − (b − a)·(1 − g)
    /// otherwise (so both ends are hit exactly).
    static func linear(sorted: UnsafeBufferPointer<Double>, q: Double) -> Double {
        precondition(!sorted.isEmpty && q >= 0 && q <= 100, "percentile of an empty sample or outside 0 ... 100")
        let n = sorted.count
        let index = Double(n - 1) * (q / 100)
        if index >= Double(n - 1) { return sorted[n - 1] }
        let below = index.rounded(.down)
        let a = sorted[Int(below)], b = sorted[Int(below) + 1]
        let weight = index - below
        let difference = b - a
        return weight >= 0.5 ? b - difference * (1 - weight) : a + difference * weight
    }
}
