/// Float samples widened to Double (exact) in a plain loop over buffer pointers, which the
/// compiler turns into packed conversions; `Array.map(Double.init)` converts one sample at a
/// time through the generic collection path (about 4x slower for a 4 s clip here).
public enum SampleConversion {
    /// `x[0..<count]` as Double (`count` defaults to all of `x`).
    public static func doubles(_ x: [Float], count: Int? = nil) -> [Double] {
        let n = min(count ?? x.count, x.count)
        return [Double](unsafeUninitializedCapacity: n) { out, initialized in
            x.withUnsafeBufferPointer { p in
                for i in 0..<n { out[i] = Double(p[i]) }
            }
            initialized = n
        }
    }

    /// Calls `body` with `x` widened to Double `blockLength` samples at a time, in order (the last
    /// block may be shorter), through one reused buffer: a measurement fed block by block sees
    /// the values of the whole signal in Double without the whole signal in Double.
    public static func forEachDoubleBlock<E: Error>(_ x: [Float], blockLength: Int = 1 << 16,
                                                    _ body: (UnsafeBufferPointer<Double>) throws(E) -> Void) throws(E) {
        precondition(blockLength > 0, "SampleConversion.forEachDoubleBlock: blockLength must be positive")
        var block = [Double](repeating: 0, count: min(blockLength, x.count))
        try x.withUnsafeBufferPointer { (x) throws(E) in
            try block.withUnsafeMutableBufferPointer { (b) throws(E) in
                var start = 0
                while start < x.count {
                    let n = min(blockLength, x.count - start)
                    for i in 0..<n { b[i] = Double(x[start + i]) }
                    try body(UnsafeBufferPointer(rebasing: b[0..<n]))
                    start += n
                }
            }
        }
    }
}
