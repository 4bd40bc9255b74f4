import SEKitSignal

extension RunsError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        switch self {
        case let .invalidParameter(name, value, reason): (name, value, reason)
        case let .catalog(error): error.invalidParameter
        default: nil
        }
    }
}
