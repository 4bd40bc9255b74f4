/// SplitMix64 (Steele, Lea & Flood 2014): a small, fast, seedable 64-bit generator whose
/// output is fixed by its published arithmetic, so a seed means the same thing everywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.finalize(state)
    }

    /// The SplitMix64 output function (a bijective 64-bit mixer).
    @inline(__always)
    public static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A child seed for item `index` of stream `stream` under `seed`: independent-looking seeds
    /// for every (run seed, clip index) pair, as DESIGN.md's randomness contract requires.
    public static func childSeed(_ seed: UInt64, index: UInt64, stream: UInt64 = 0) -> UInt64 {
        finalize(finalize(seed ^ finalize(stream &+ 0x632B_E59B_D9B4_E019)) &+ index &* 0x9E37_79B9_7F4A_7C15)
    }
}
