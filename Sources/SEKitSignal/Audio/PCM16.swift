/// SEKit's 16-bit PCM convention, the one libsndfile uses when reading: sample value
/// `q / 32768` for the integer `q`. Encoding rounds to the nearest step and clips at
/// [-32768, 32767], so a float written and read back is unchanged when it is already on a step.
public enum PCM16 {
    /// Integer code of `value` (rounded, clipped to the 16-bit range).
    @inline(__always)
    public static func encode(_ value: Float) -> Int16 {
        // Clamp, round to nearest-even by the 1.5·2^23 bias (the float's low mantissa bits become
        // the integer), then move exact ties away from zero: the codes of
        // `(value * 32768).rounded()` clipped to [-32768, 32767], with no libm call and no
        // trapping conversion, so loops over samples vectorise. NaN is never passed (writers refuse it).
        let clamped = min(max(value * 32768, -32768), 32767)
        let biased = clamped + 12_582_912
        var code = Int32(bitPattern: biased.bitPattern) &- 0x4B40_0000
        let remainder = clamped - Float(code)
        code &+= (remainder == 0.5 && clamped > 0) ? 1 : 0
        code &-= (remainder == -0.5 && clamped < 0) ? 1 : 0
        return Int16(truncatingIfNeeded: code)
    }

    /// Encodes every sample times `scale` (see ``encode(_:)``: the codes of `samples[i] * scale`)
    /// into `out`; returns how many clip. The inner loop of every 16-bit WAV SEKit writes, in
    /// SSE2 (``VectorKernels/encodePCM16(_:scale:into:)``). `samples` must be finite.
    public static func encode(_ samples: UnsafeBufferPointer<Float>, scale: Float = 1, into out: UnsafeMutablePointer<Int16>) -> Int {
        VectorKernels.encodePCM16(samples, scale: scale, into: out)
    }

    /// Codes of `x[i] * scale` for every sample (see ``encode(_:)``): the mixer's path from its
    /// signals to 16-bit stems.
    public static func encode(_ x: [Float], scale: Float) -> [Int16] {
        [Int16](unsafeUninitializedCapacity: x.count) { out, count in
            _ = x.withUnsafeBufferPointer { encode($0, scale: scale, into: out.baseAddress!) }
            count = x.count
        }
    }

    /// Whether every sample is finite (no NaN or ±inf), eight lanes at a time: x·0 is NaN exactly
    /// for non-finite x, and NaN propagates through the sums.
    public static func allFinite(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        let n = samples.count, blocks = n / 8
        var acc = SIMD8<Float>(repeating: 0)
        if let base = samples.baseAddress {
            let raw = UnsafeRawPointer(base)
            for j in 0..<blocks { acc += raw.loadUnaligned(fromByteOffset: 32 * j, as: SIMD8<Float>.self) * 0 }
        }
        var tail: Float = 0
        for i in (blocks * 8)..<n { tail += samples[i] * 0 }
        return !(acc.sum() + tail).isNaN
    }

    /// Float values of codes (`q / 32768`).
    public static func decode(_ codes: [Int16]) -> [Float] {
        [Float](unsafeUninitializedCapacity: codes.count) { out, count in
            codes.withUnsafeBufferPointer { c in for i in 0..<c.count { out[i] = Float(c[i]) * (1 / 32768) } }
            count = codes.count
        }
    }

    /// Float value of an integer code: `q / 32768`.
    @inline(__always)
    public static func decode(_ code: Int16) -> Float { Float(code) * (1 / 32768) }

    /// Whether encoding `value` clips (its scaled value lies outside [-32768.5, 32767.5)).
    @inline(__always)
    public static func clips(_ value: Float) -> Bool {
        let scaled = value * 32768
        return scaled >= 32767.5 || scaled < -32768.5 || !scaled.isFinite
    }
}
