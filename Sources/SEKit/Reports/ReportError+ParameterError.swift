extension ReportError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case let .invalidOption(name, value, reason) = self { return (name, value, reason) }
        return nil
    }
}
