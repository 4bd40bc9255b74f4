/// A sample type the metrics read: `Float`, as audio is read (and as the scorer holds it), or
/// `Double`. Every value is promoted to Double where a metric does arithmetic; the promotion of
/// a Float is exact, so a metric gives the same result, bit for bit, for a signal held as Float
/// and for the same signal widened to Double beforehand, with half the memory.
public protocol MetricSample: BinaryFloatingPoint, Sendable {
    /// The value as Double (exact for Float).
    var double: Double { get }
    /// Index of the first NaN or infinite value of `values`, nil when all are finite.
    static func firstNonFinite(in values: UnsafeBufferPointer<Self>) -> Int?
}

extension Float: MetricSample {
    @inline(__always) public var double: Double { Double(self) }

    public static func firstNonFinite(in values: UnsafeBufferPointer<Float>) -> Int? { AudioFile.firstNonFinite(values) }
}

extension Double: MetricSample {
    @inline(__always) public var double: Double { self }

    /// One vectorised pass (x·0 is 0 for every finite x and NaN otherwise), then a search only
    /// when there is one.
    public static func firstNonFinite(in p: UnsafeBufferPointer<Double>) -> Int? {
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
