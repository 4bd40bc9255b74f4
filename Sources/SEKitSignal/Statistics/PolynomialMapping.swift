import Foundation

/// The third-order polynomial mapping of ITU-T P.1401 (07/2020, §7.2): an objective score x is
/// mapped to the subjective scale by ŷ = a₀ + a₁x + a₂x² + a₃x³ fitted by least squares (as
/// `numpy.polyfit(x, y, 3)`), and the predictor's error is the RMSE after mapping with the
/// degrees of freedom of the fit removed: √(Σ(y − ŷ)² / (N − d)), d = 4 parameters (P.1401 eq. 7-5).
///
/// The fit is unconstrained: P.1401 asks for a monotonic mapping, which a least-squares cubic is over
/// the range of well-behaved data but is not checked to be; ``isMonotonic`` says whether it is.
public struct PolynomialMapping: Sendable, Equatable, Codable {
    /// a₀, a₁, a₂, a₃ (constant term first).
    public var coefficients: [Double]
    /// RMSE after mapping, divided by N − 4 (P.1401's d = 4).
    public var rmse: Double
    public var n: Int
    /// Whether the fitted cubic is non-decreasing or non-increasing over the range of x.
    public var isMonotonic: Bool

    /// Parameters of a third-order mapping.
    public static let parameters = 4

    /// Fits the mapping of `x` (objective) onto `y` (subjective).
    /// - Throws: ``StatisticsError`` for samples of different lengths, non-finite values, N ≤ 4
    ///   (no degree of freedom left) or x with fewer than 4 distinct values (singular fit).
    public init(x: [Double], y: [Double]) throws(StatisticsError) {
        guard x.count == y.count else {
            throw .invalidParameter(name: "y", value: "\(y.count) values", reason: "x has \(x.count); pairs need as many of each")
        }
        guard x.count > Self.parameters else {
            throw .invalidParameter(name: "x", value: "\(x.count) values", reason: "a third-order mapping needs more than 4 pairs")
        }
        try StatisticsError.checkValues(x, parameter: "x", allowInfinity: false)
        try StatisticsError.checkValues(y, parameter: "y", allowInfinity: false)
        // Centred and scaled x keeps the normal equations well conditioned; the coefficients are
        // expanded back to powers of x at the end.
        let n = Double(x.count)
        let centre = x.reduce(0, +) / n
        let scale = max(x.map { abs($0 - centre) }.max() ?? 0, .leastNormalMagnitude)
        let u = x.map { ($0 - centre) / scale }
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: 5), count: 4)
        for (ui, yi) in zip(u, y) {
            let powers = [1, ui, ui * ui, ui * ui * ui]
            for row in 0..<4 {
                for column in 0..<4 { matrix[row][column] += powers[row] * powers[column] }
                matrix[row][4] += powers[row] * yi
            }
        }
        guard let b = Self.solve(matrix) else {
            throw .invalidParameter(
                name: "x", value: "\(Set(x).count) distinct values", reason: "a third-order mapping needs at least 4 distinct values")
        }
        // ŷ = Σ b_k ((x − c)/s)^k, expanded into powers of x.
        let s = scale
        let c = centre
        let a0 = b[0] - b[1] * c / s + b[2] * c * c / (s * s) - b[3] * c * c * c / (s * s * s)
        let a1 = b[1] / s - 2 * b[2] * c / (s * s) + 3 * b[3] * c * c / (s * s * s)
        let a2 = b[2] / (s * s) - 3 * b[3] * c / (s * s * s)
        let a3 = b[3] / (s * s * s)
        coefficients = [a0, a1, a2, a3]
        var squares = 0.0
        for (ui, yi) in zip(u, y) {
            let fitted = b[0] + ui * (b[1] + ui * (b[2] + ui * b[3]))
            squares += (yi - fitted) * (yi - fitted)
        }
        self.n = x.count
        rmse = (squares / Double(x.count - Self.parameters)).squareRoot()
        // The derivative b1 + 2 b2 u + 3 b3 u² keeps one sign over [min u, max u]: check its ends and its extremum.
        let low = u.min()!
        let high = u.max()!
        var probes = [low, high]
        if b[3] != 0 {
            let vertex = -b[2] / (3 * b[3])
            if vertex > low && vertex < high { probes.append(vertex) }
        }
        let slopes = probes.map { b[1] + 2 * b[2] * $0 + 3 * b[3] * $0 * $0 }
        isMonotonic = slopes.allSatisfy { $0 >= 0 } || slopes.allSatisfy { $0 <= 0 }
    }

    /// The mapped value of `x`.
    public func callAsFunction(_ x: Double) -> Double {
        coefficients[0] + x * (coefficients[1] + x * (coefficients[2] + x * coefficients[3]))
    }

    /// Gauss-Jordan elimination with partial pivoting of an augmented 4 × 5 system; nil when singular.
    static func solve(_ augmented: [[Double]]) -> [Double]? {
        var m = augmented
        let size = m.count
        let tolerance = 1e-12 * (m.map { $0[0..<size].map(abs).max() ?? 0 }.max() ?? 0)
        for column in 0..<size {
            let pivot = (column..<size).max { abs(m[$0][column]) < abs(m[$1][column]) }!
            guard abs(m[pivot][column]) > tolerance else { return nil }
            m.swapAt(column, pivot)
            for row in 0..<size where row != column {
                let factor = m[row][column] / m[column][column]
                for k in column...size { m[row][k] -= factor * m[column][k] }
            }
        }
        return (0..<size).map { m[$0][size] / m[$0][$0] }
    }
}
