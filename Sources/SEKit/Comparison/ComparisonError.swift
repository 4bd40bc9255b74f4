/// Errors from comparing score runs (`runs diff`, `runs leaderboard`, `runs best`, the report's
/// comparisons): each names the parameter, value or runs at fault. What the catalogue underneath
/// refuses (an unknown or ambiguous run, a bad filter, SQLite) is its own error, carried unchanged
/// in ``catalog(_:)``.
public enum ComparisonError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A parameter value is invalid (name, value, what is wrong): runs that cannot be compared, a
    /// metric or subset they lack, a grouping the board cannot make.
    case invalidParameter(name: String, value: String, reason: String)
    /// The catalogue's own error (storage, run references, filters), with its message unchanged.
    case catalog(CatalogError)

    /// Short machine-readable code, stable across releases (the catalogue's own for ``catalog(_:)``).
    public var code: String {
        switch self {
        case .invalidParameter: "invalid-parameter"
        case .catalog(let error): error.code
        }
    }

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let reason): "invalid \(name) = \(value): \(reason)"
        case .catalog(let error): error.description
        }
    }
}

extension ComparisonError {
    /// Runs a catalogue query, carrying what the catalogue throws unchanged in ``catalog(_:)``.
    static func carrying<T>(_ query: () throws(CatalogError) -> T) throws(ComparisonError) -> T {
        do { return try query() } catch { throw .catalog(error) }
    }
}
