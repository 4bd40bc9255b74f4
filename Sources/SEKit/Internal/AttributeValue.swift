/// A scalar HDF5 attribute value: 64-bit integer, double, or UTF-8 string.
///
/// Stored as an `H5T_STD_I64LE`, `H5T_IEEE_F64LE` or variable-length UTF-8 string scalar
/// attribute; h5py reads them as `numpy.int64`, `numpy.float64` and `str`. Booleans are
/// stored as integers 0/1 (`.int(flag ? 1 : 0)`).
public enum AttributeValue: Equatable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    case int(Int)
    case double(Double)
    case string(String)

    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }

    /// The value as an Int, if it is an integer.
    public var intValue: Int? { if case .int(let value) = self { value } else { nil } }
    /// The value as a Double (integers convert), if it is numeric.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .string: nil
        }
    }
    /// The value as a String, if it is a string.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }

    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value
        }
    }
}
