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

    /// Encodes every sample (see ``encode(_:)``) into `out`; returns how many clip. Branch-free, so
    /// the compiler vectorises it: the inner loop of every 16-bit WAV SEKit writes. `samples` must be finite.
    @inline(never)
    public static func encode(_ samples: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Int16>) -> Int {
        var clipped = 0
        for i in 0..<samples.count {
            let scaled = samples[i] * 32768
            clipped &+= (scaled >= 32767.5 ? 1 : 0) &+ (scaled < -32768.5 ? 1 : 0)
            let clamped = min(max(scaled, -32768), 32767)
            var code = Int32(bitPattern: (clamped + 12_582_912).bitPattern) &- 0x4B40_0000
            let remainder = clamped - Float(code)
            code &+= (remainder == 0.5 && clamped > 0) ? 1 : 0
            code &-= (remainder == -0.5 && clamped < 0) ? 1 : 0
            out[i] = Int16(truncatingIfNeeded: code)
        }
        return clipped
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
