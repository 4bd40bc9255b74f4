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

    /// Codes of 8 samples (see ``encode(_:)``) and a mask of those that clip.
    @inline(__always)
    static func encode8(_ v: SIMD8<Float>) -> (codes: SIMD8<Int32>, clips: SIMDMask<SIMD8<Int32>>) {
        let scaled = v * 32768
        let clips = (scaled .>= 32767.5) .| (scaled .< -32768.5)
        // Clamp with selects (SIMD's generic clamped/pointwiseMin are not inlined here).
        var clamped = scaled.replacing(with: -32768, where: scaled .< -32768)
        clamped = clamped.replacing(with: 32767, where: clamped .> 32767)
        var code = unsafeBitCast(clamped + 12_582_912, to: SIMD8<Int32>.self) &- 0x4B40_0000
        let remainder = clamped - SIMD8<Float>(code)
        let up = (remainder .== 0.5) .& (clamped .> 0)
        let down = (remainder .== -0.5) .& (clamped .< 0)
        code = code.replacing(with: code &+ 1, where: up)
        code = code.replacing(with: code &- 1, where: down)
        return (code, clips)
    }

    /// Encodes every sample (see ``encode(_:)``) into `out`; returns how many clip. Eight samples
    /// at a time with SIMD: the inner loop of every 16-bit WAV SEKit writes. `samples` must be finite.
    public static func encode(_ samples: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Int16>) -> Int {
        let n = samples.count, blocks = n / 8
        var clipCounts = SIMD8<Int32>(repeating: 0)
        if let base = samples.baseAddress {
            let raw = UnsafeRawPointer(base)
            let outRaw = UnsafeMutableRawPointer(out)
            for j in 0..<blocks {
                let (codes, clips) = encode8(raw.loadUnaligned(fromByteOffset: 32 * j, as: SIMD8<Float>.self))
                clipCounts = clipCounts.replacing(with: clipCounts &+ 1, where: clips)
                outRaw.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: codes), toByteOffset: 16 * j, as: SIMD8<Int16>.self)
            }
        }
        var clipped = Int(clipCounts.wrappedSum())
        for i in (blocks * 8)..<n {
            if clips(samples[i]) { clipped += 1 }
            out[i] = encode(samples[i])
        }
        return clipped
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

    /// Codes of `Float(x[i] * scale)` for every sample (see ``encode(_:)``), without the
    /// intermediate Float array: the mixer's path from its Double signals to 16-bit stems.
    public static func encode(_ x: [Double], scale: Double) -> [Int16] {
        let n = x.count, blocks = n / 8
        return [Int16](unsafeUninitializedCapacity: n) { out, count in
            x.withUnsafeBufferPointer { p in
                if let base = p.baseAddress {
                    let raw = UnsafeRawPointer(base)
                    let outRaw = UnsafeMutableRawPointer(out.baseAddress!)
                    for j in 0..<blocks {
                        let low = raw.loadUnaligned(fromByteOffset: 64 * j, as: SIMD4<Double>.self) * scale
                        let high = raw.loadUnaligned(fromByteOffset: 64 * j + 32, as: SIMD4<Double>.self) * scale
                        let (codes, _) = encode8(SIMD8<Float>(lowHalf: SIMD4<Float>(low), highHalf: SIMD4<Float>(high)))
                        outRaw.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: codes), toByteOffset: 16 * j, as: SIMD8<Int16>.self)
                    }
                }
                for i in (blocks * 8)..<n { out[i] = encode(Float(p[i] * scale)) }
            }
            count = n
        }
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
