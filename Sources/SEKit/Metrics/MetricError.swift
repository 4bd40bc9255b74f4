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

    public var code: String {
        switch self {
        case .lengthMismatch: "length-mismatch"
        case .tooShort: "too-short"
        case .silentReference: "silent-reference"
        case .nonFinite: "non-finite"
        case .invalidParameter: "invalid-parameter"
        case .undefined: "undefined"
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
        }
    }

    /// Checks equal lengths and finite samples.
    static func checkPair(_ reference: [Double], _ processed: [Double]) throws {
        guard reference.count == processed.count else {
            throw MetricError.lengthMismatch(reference: reference.count, processed: processed.count)
        }
        if let i = firstNonFinite(reference) { throw MetricError.nonFinite(signal: "reference", index: i) }
        if let i = firstNonFinite(processed) { throw MetricError.nonFinite(signal: "processed", index: i) }
    }

    /// Index of the first NaN or infinite sample. One vectorised pass (x·0 is 0 for every finite
    /// x and NaN otherwise), then a search only when there is one.
    static func firstNonFinite(_ x: [Double]) -> Int? {
        x.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return nil }
            let raw = UnsafeRawPointer(base)
            var s0 = SIMD2<Double>(), s1 = SIMD2<Double>()
            var i = 0
            while i + 4 <= p.count {
                s0 += raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD2<Double>.self) * 0
                s1 += raw.loadUnaligned(fromByteOffset: i * 8 + 16, as: SIMD2<Double>.self) * 0
                i += 4
            }
            var tail = 0.0
            while i < p.count { tail += p[i] * 0; i += 1 }
            if ((s0 + s1).sum() + tail).isFinite { return nil }
            return p.firstIndex { !$0.isFinite }
        }
    }
}
