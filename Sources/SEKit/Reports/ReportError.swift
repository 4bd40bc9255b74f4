/// Errors of the HTML report and the tables: options that cannot be met. Catalogue lookups
/// (unknown runs) throw `CatalogError`, figures ``PlotError``, as their folders do.
public enum ReportError: Error, Equatable, CustomStringConvertible, Sendable {
    /// An option's value is out of range or contradicts another (`--worst 500`, `--out x.pdf`).
    case invalidOption(name: String, value: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidOption(name, value, reason): "\(name) \(value): \(reason)"
        }
    }
}
