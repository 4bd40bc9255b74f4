/// An error about one parameter of a library call: its name (the name SEKit uses for it
/// everywhere: recipe keys, catalogue params, HDF5 attributes; `snr-db`, `hop-length`), the value
/// given and what is wrong. Library messages name the parameter as such; a command line that
/// exposes the parameter as a flag (`--snr-db`) presents it in its own terms.
public protocol ParameterError: Error, CustomStringConvertible {
    /// The parameter at fault, or nil when the error is not about a parameter.
    var invalidParameter: (name: String, value: String, reason: String)? { get }
}

extension MixError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        switch self {
        case let .invalidOption(name, value, reason): (name, value, reason)
        case let .invalidSplit(reason): ("split", "", reason)
        default: nil
        }
    }
}

extension ScoreError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case let .invalidOption(name, value, reason) = self { return (name, value, reason) }
        return nil
    }
}

extension CatalogError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case let .invalidParameter(name, value, reason) = self { return (name, value, reason) }
        return nil
    }
}

extension FeatureFileError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case let .invalidParameter(name, value, reason) = self { return (name, value, reason) }
        return nil
    }
}

extension DSPError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case let .invalidParameter(name, value, reason) = self { return (name, value, reason) }
        return nil
    }
}
