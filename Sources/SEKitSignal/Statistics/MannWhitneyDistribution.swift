/// The exact null distribution of the Mann-Whitney U statistic for samples of nx and ny values
/// without ties: each of the C(nx + ny, nx) arrangements of the pooled ranks is equally likely.
///
/// The number of arrangements with U = u is the coefficient of qᵘ in the Gaussian binomial
/// coefficient [m + n choose m]_q = Π_{i=1..m} (1 − q^{n+i})/(1 − q^i), m = min(nx, ny),
/// n = max(nx, ny) (Andrews, *The Theory of Partitions*, 1976, Thm 3.1). The products and the
/// divisions by (1 − qⁱ) are done on power series with coefficients modulo 2¹²⁸: every step is
/// exact in that ring and the final coefficients are below 2¹²⁸, so they come out exact.
/// O(m²·n) additions.
struct MannWhitneyDistribution {
    /// Counts of arrangements for u = 0 ... nx·ny.
    private let counts: [WideCount]
    private let total: Double

    /// nil when the number of arrangements reaches 2¹²⁷ (m ≤ 8 against n ≳ 200,000), where the
    /// counts would overflow.
    init?(nx: Int, ny: Int) {
        let m = min(nx, ny), n = max(nx, ny)
        var estimate = 1.0
        for i in stride(from: 1, through: m, by: 1) { estimate = estimate * Double(n + i) / Double(i) }
        guard estimate < 0x1p127 else { return nil }
        let length = m * n + 1
        var c = [WideCount](repeating: WideCount(), count: length)
        c[0] = WideCount(1)
        for i in stride(from: 1, through: m, by: 1) {
            let drop = n + i
            if drop < length {
                for u in stride(from: length - 1, through: drop, by: -1) { c[u] = c[u] &- c[u - drop] }
            }
            for u in stride(from: i, to: length, by: 1) { c[u] = c[u] &+ c[u - i] }
        }
        counts = c
        total = c.reduce(WideCount(), &+).doubleValue
    }

    /// P(U ≤ k).
    func cdf(_ k: Int) -> Double {
        guard k >= 0 else { return 0 }
        guard k < counts.count - 1 else { return 1 }
        return counts[0...k].reduce(WideCount(), &+).doubleValue / total
    }
}

/// An unsigned 128-bit integer with wrapping addition and subtraction: just what exact counting
/// of arrangements needs (the standard library's `UInt128` needs macOS 15).
struct WideCount: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    init() {}
    init(_ value: UInt64) { low = value }

    static func &+ (a: WideCount, b: WideCount) -> WideCount {
        var r = WideCount()
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        r.low = low
        r.high = a.high &+ b.high &+ (carry ? 1 : 0)
        return r
    }

    static func &- (a: WideCount, b: WideCount) -> WideCount {
        var r = WideCount()
        let (low, borrow) = a.low.subtractingReportingOverflow(b.low)
        r.low = low
        r.high = a.high &- b.high &- (borrow ? 1 : 0)
        return r
    }

    /// The nearest `Double` but for one rounding of each half (relative error below 2⁻⁵²).
    var doubleValue: Double { Double(high) * 0x1p64 + Double(low) }
}
