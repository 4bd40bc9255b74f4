/// SEKit's 16-bit PCM convention, the one libsndfile uses when reading: sample value
/// `q / 32768` for the integer `q`. Encoding rounds to the nearest step and clips at
/// [-32768, 32767], so a float written and read back is unchanged when it is already on a step.
public enum PCM16 {
    /// Integer code of `value` (rounded, clipped to the 16-bit range).
    @inline(__always)
    public static func encode(_ value: Float) -> Int16 {
        let scaled = (value * 32768).rounded()
        if scaled >= 32767 { return 32767 }
        if scaled <= -32768 { return -32768 }
        return Int16(scaled)
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
