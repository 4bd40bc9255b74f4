/// Why `sekit enhance` or an enhancer cannot process its input. Every case names the parameter,
/// value or input at fault.
public enum EnhancementError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A parameter is out of range (its flag name, e.g. `leading-seconds`, the value, what is wrong).
    case invalidParameter(name: String, value: String, reason: String)
    /// The signal has fewer samples than the method needs (one frame, or the noise-only lead-in).
    case signalTooShort(samples: Int, required: Int, reason: String)
    /// The sample rate cannot be framed (not positive, or too low for a frame of a few samples).
    case unsupportedSampleRate(Int, reason: String)
    /// A sample is NaN or infinite (the first one's index).
    case nonFiniteSample(index: Int)
    /// There is nothing to enhance (an empty folder, split or shard).
    case noInput(reason: String)

    /// Short machine-readable code, stable across releases.
    public var code: String {
        switch self {
        case .invalidParameter: "invalid-parameter"
        case .signalTooShort: "signal-too-short"
        case .unsupportedSampleRate: "unsupported-sample-rate"
        case .nonFiniteSample: "non-finite-sample"
        case .noInput: "no-input"
        }
    }

    public var description: String {
        switch self {
        case let .invalidParameter(name, value, reason): value.isEmpty ? "\(name): \(reason)" : "invalid \(name) = \(value): \(reason)"
        case let .signalTooShort(samples, required, reason): "signal of \(samples) samples is too short: needs \(required) (\(reason))"
        case let .unsupportedSampleRate(rate, reason): "unsupported sample rate \(rate) Hz: \(reason)"
        case let .nonFiniteSample(index): "the signal has a NaN or infinite sample at \(index)"
        case let .noInput(reason): "nothing to enhance: \(reason)"
        }
    }
}

extension EnhancementError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case let .invalidParameter(name, value, reason) = self { return (name, value, reason) }
        return nil
    }
}
