/// Why a figure cannot be drawn: names the file or option at fault.
public enum PlotError: Error, Equatable, CustomStringConvertible, Sendable {
    case invalidOption(name: String, value: String, reason: String)
    /// A file cannot be plotted with the others (rate or length differs) or cannot be read.
    case file(path: String, reason: String)
    /// The image cannot be encoded or written.
    case encoding(reason: String)

    public var description: String {
        switch self {
        case let .invalidOption(name, value, reason): "\(name) \(value): \(reason)"
        case let .file(path, reason): "\(path): \(reason)"
        case let .encoding(reason): "cannot write the figure: \(reason)"
        }
    }
}
