extension MixError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        switch self {
        case let .invalidOption(name, value, reason): (name, value, reason)
        case let .invalidSplit(reason): ("split", "", reason)
        default: nil
        }
    }
}
