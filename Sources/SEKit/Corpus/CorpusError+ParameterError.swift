extension CorpusError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        switch self {
        case let .invalidInput(name, value, reason): (name, value, reason)
        default: nil
        }
    }
}
