import SEKitSignal

extension CatalogError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case let .invalidParameter(name, value, reason) = self { return (name, value, reason) }
        return nil
    }
}
