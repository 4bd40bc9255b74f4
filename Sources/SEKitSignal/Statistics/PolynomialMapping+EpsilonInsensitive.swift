import Foundation

extension PolynomialMapping {
    /// The epsilon-insensitive RMSE of ITU-T P.1401 (07/2020, §7.3), rmse*: the error after the
    /// mapping that is left once each subjective score's own uncertainty is allowed for,
    /// Perror(i) = max(0, |y(i) − ŷ(i)| − ci95(i)), rmse* = √(Σ Perror(i)² / (N − d)), d = 4 for the
    /// third-order mapping. ci95(i) is the half-width of the 95% confidence interval of y(i) (the
    /// condition's or stimulus's mean opinion score). With every ci95 0 it is ``rmse``.
    /// - Parameters:
    ///   - x: the objective scores the mapping was fitted on (or others, as many as `y`).
    ///   - y: the subjective scores.
    ///   - ci95: the half-width of each subjective score's 95% confidence interval (≥ 0).
    /// - Throws: ``StatisticsError`` for samples of different lengths, non-finite values, a negative
    ///   half-width or N ≤ 4.
    public func epsilonInsensitiveRMSE(x: [Double], y: [Double], ci95: [Double]) throws(StatisticsError) -> Double {
        guard x.count == y.count, ci95.count == y.count else {
            throw .invalidParameter(
                name: "ci95", value: "\(ci95.count) values",
                reason: "x has \(x.count) and y \(y.count); every pair needs one interval")
        }
        guard x.count > Self.parameters else {
            throw .invalidParameter(name: "x", value: "\(x.count) values", reason: "rmse* of a third-order mapping needs more than 4 pairs")
        }
        try StatisticsError.checkValues(x, parameter: "x", allowInfinity: false)
        try StatisticsError.checkValues(y, parameter: "y", allowInfinity: false)
        try StatisticsError.checkValues(ci95, parameter: "ci95", allowInfinity: false)
        if let negative = ci95.firstIndex(where: { $0 < 0 }) {
            throw .invalidParameter(name: "ci95", value: "\(ci95[negative]) at index \(negative)", reason: "a half-width is never negative")
        }
        var squares = 0.0
        for i in x.indices {
            let error = max(0, abs(y[i] - self(x[i])) - ci95[i])
            squares += error * error
        }
        return (squares / Double(x.count - Self.parameters)).squareRoot()
    }
}
