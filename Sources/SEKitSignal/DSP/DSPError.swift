/// Errors from the DSP kernels (STFT parameters, filter design). Every case names the
/// parameter, its value and what is wrong with it.
public enum DSPError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A parameter value is invalid (name, value, what is wrong), e.g. `hop-length = 0: must be positive`.
    case invalidParameter(name: String, value: String, reason: String)

    /// Short machine-readable code, stable across releases.
    public var code: String {
        switch self {
        case .invalidParameter: "invalid-parameter"
        }
    }

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let reason): "invalid \(name) = \(value): \(reason)"
        }
    }
}
