/// Why a metric cannot be computed for a pair of signals. No metric returns a sentinel value.
public enum MetricError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Reference and processed signals differ in length.
    case lengthMismatch(reference: Int, processed: Int)
    /// The signal is too short for the metric (e.g. STOI needs 30 frames after silence removal).
    case tooShort(metric: String, samples: Int, reason: String)
    /// The reference is silent (zero energy), so the ratio is undefined.
    case silentReference(metric: String)
    /// A sample is NaN or infinite.
    case nonFinite(signal: String, index: Int)
    /// A parameter is out of range.
    case invalidParameter(name: String, value: String, reason: String)
    /// The metric has no value for this pair (e.g. SI-SDR of a silent processed signal is 0/0).
    case undefined(metric: String, reason: String)
    /// A reference implementation run outside Swift (`pesq`, `dnsmos`) refused the input or failed.
    case referenceImplementation(name: String, reason: String)
    /// The metric compares against a reference, and there is none (a non-intrusive scoring).
    case needsReference(metric: String)

    public var code: String {
        switch self {
        case .lengthMismatch: "length-mismatch"
        case .tooShort: "too-short"
        case .silentReference: "silent-reference"
        case .nonFinite: "non-finite"
        case .invalidParameter: "invalid-parameter"
        case .undefined: "undefined"
        case .referenceImplementation: "reference-implementation"
        case .needsReference: "needs-reference"
        }
    }

    public var description: String {
        switch self {
        case .lengthMismatch(let r, let p): "reference has \(r) samples, processed has \(p)"
        case .tooShort(let metric, let n, let reason): "\(metric): signal of \(n) samples is too short: \(reason)"
        case .silentReference(let metric): "\(metric): the reference is silent"
        case .nonFinite(let signal, let index): "\(signal) has a NaN or infinite sample at \(index)"
        case .invalidParameter(let name, let value, let reason): "invalid \(name) = \(value): \(reason)"
        case .undefined(let metric, let reason): "\(metric): undefined for this pair: \(reason)"
        case .referenceImplementation(let name, let reason): "\(name): \(reason)"
        case .needsReference(let metric): "\(metric) compares against a clean reference, and there is none"
        }
    }

    /// Checks equal lengths and finite samples.
    package static func checkPair<T: MetricSample>(_ reference: [T], _ processed: [T]) throws {
        guard reference.count == processed.count else {
            throw MetricError.lengthMismatch(reference: reference.count, processed: processed.count)
        }
        if let i = reference.withUnsafeBufferPointer(T.firstNonFinite) { throw MetricError.nonFinite(signal: "reference", index: i) }
        if let i = processed.withUnsafeBufferPointer(T.firstNonFinite) { throw MetricError.nonFinite(signal: "processed", index: i) }
    }
}
