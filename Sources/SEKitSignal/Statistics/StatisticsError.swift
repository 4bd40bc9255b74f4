/// Why a statistic cannot be computed from its input. Every case names the parameter at fault
/// (`differences`, `rows`, `p-values`, `resamples`, ...) and, where there is one, the value.
public enum StatisticsError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A parameter value is out of range (name, value, what is wrong), e.g.
    /// `confidence = 1.5: must be strictly between 0 and 1`.
    case invalidParameter(name: String, value: String, reason: String)
    /// A sample has no values where the statistic needs at least one.
    case empty(parameter: String)
    /// A value is NaN (or, where only finite values make sense, infinite); `index` is its
    /// position in the parameter as passed (for row-major tables: the flat index).
    case nonFinite(parameter: String, index: Int, value: Double)

    /// Short machine-readable code, stable across releases.
    public var code: String {
        switch self {
        case .invalidParameter: "invalid-parameter"
        case .empty: "empty"
        case .nonFinite: "non-finite"
        }
    }

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let reason): "invalid \(name) = \(value): \(reason)"
        case .empty(let parameter): "\(parameter) has no values"
        case .nonFinite(let parameter, let index, let value): "\(parameter) has \(value) at index \(index)"
        }
    }

    /// Throws ``nonFinite(parameter:index:value:)`` for the first NaN in `values`, and for the
    /// first infinity too unless `allowInfinity` (rank statistics order infinities like any value).
    static func checkValues(_ values: [Double], parameter: String, allowInfinity: Bool) throws(StatisticsError) {
        let bad = allowInfinity ? values.firstIndex(where: \.isNaN) : values.firstIndex { !$0.isFinite }
        if let bad { throw StatisticsError.nonFinite(parameter: parameter, index: bad, value: values[bad]) }
    }
}

extension StatisticsError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case let .invalidParameter(name, value, reason) = self { return (name, value, reason) }
        return nil
    }
}
