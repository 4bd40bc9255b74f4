import Foundation

/// Mean, sample standard deviation and a 95% confidence interval of the mean.
public struct Summary: Sendable, Equatable, Codable {
    public var mean: Double
    /// Sample standard deviation (divides by n − 1); 0 when n = 1.
    public var std: Double
    public var n: Int
    /// mean ∓ t(0.975, n−1)·std/√n (Student t); NaN when n = 1, where the interval is undefined
    /// (no degrees of freedom: SciPy's `t.interval(0.95, df=0)` is NaN too).
    public var ci95Low: Double
    public var ci95High: Double

    /// Summarises `values` (finite values only; infinities such as the SNR of a perfect
    /// estimate make the summary infinite, which is reported as such).
    public init(values: [Double]) {
        n = values.count
        guard n > 0 else { mean = .nan; std = .nan; ci95Low = .nan; ci95High = .nan; return }
        guard values.allSatisfy(\.isFinite) else {
            // +inf when any value is +inf and none is -inf or NaN (and so on): no spread to speak of.
            mean = values.reduce(0, +) / Double(n)
            std = .nan; ci95Low = mean; ci95High = mean
            return
        }
        // Welford's algorithm: stable for large offsets.
        var m = 0.0, s = 0.0
        for (i, v) in values.enumerated() {
            let delta = v - m
            m += delta / Double(i + 1)
            s += delta * (v - m)
        }
        mean = m
        std = n > 1 ? (s / Double(n - 1)).squareRoot() : 0
        let half = n > 1 ? StudentT.quantile(0.975, degreesOfFreedom: Double(n - 1)) * std / Double(n).squareRoot() : .nan
        ci95Low = m - half
        ci95High = m + half
    }
}

/// Student's t distribution.
public enum StudentT {
    /// CDF at `t` for `df` degrees of freedom, through the regularised incomplete beta function:
    /// for t ≥ 0, F(t) = 1 − ½·I_{df/(df+t²)}(df/2, ½).
    public static func cdf(_ t: Double, degreesOfFreedom df: Double) -> Double {
        let tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), a: df / 2, b: 0.5)
        return t >= 0 ? 1 - tail : tail
    }

    /// Quantile (inverse CDF) at probability `p` in (0, 1), by bisection on ``cdf(_:degreesOfFreedom:)``
    /// to 1e-13 absolute.
    public static func quantile(_ p: Double, degreesOfFreedom df: Double) -> Double {
        precondition(p > 0 && p < 1 && df > 0, "StudentT.quantile needs 0 < p < 1 and df > 0")
        if p == 0.5 { return 0 }
        var low = -1.0, high = 1.0
        while cdf(low, degreesOfFreedom: df) > p { low *= 2 }
        while cdf(high, degreesOfFreedom: df) < p { high *= 2 }
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if cdf(mid, degreesOfFreedom: df) < p { low = mid } else { high = mid }
            if high - low < 1e-13 { break }
        }
        return (low + high) / 2
    }

    /// I_x(a, b) by the continued fraction of Numerical Recipes §6.4 (modified Lentz).
    static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let logFront = logGammas + logPowers
        if x > (a + 1) / (a + b + 2) {
            return 1 - regularizedIncompleteBeta(1 - x, a: b, b: a)
        }
        let tiny = 1e-300
        var c = 1.0, d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var f = d
        for m in 1...500 {
            let m = Double(m)
            let even: Double = (a + 2 * m - 1) * (a + 2 * m)
            var numerator: Double = m * (b - m) * x / even
            d = 1 + numerator * d; if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c; if abs(c) < tiny { c = tiny }
            d = 1 / d; f *= d * c
            let odd: Double = (a + 2 * m) * (a + 2 * m + 1)
            numerator = -(a + m) * (a + b + m) * x / odd
            d = 1 + numerator * d; if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            f *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return exp(logFront) * f / a
    }
}
