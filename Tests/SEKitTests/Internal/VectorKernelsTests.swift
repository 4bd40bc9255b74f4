import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The SSE2 16-bit kernels against plain Swift definitions, on values that hit every rounding
/// and saturation case (ties, exact steps, both clipping edges, -32768 codes).
@Suite struct VectorKernelsTests {
    /// Values around every interesting point, and random ones, in an odd count (to reach the tail).
    static let values: [Float] = {
        var v: [Float] = []
        for base in [0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 100.5, -100.5, 32766.5, 32767, 32767.5, 32768, -32767.5, -32768, -32768.5, -32769,
                     40000, -40000] as [Float] {
            for nudge in [-1, 0, 1] as [Float] { v.append(base.advanced(by: nudge) / 32768) }
            v.append(base.nextUp / 32768); v.append(base.nextDown / 32768)
        }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<10_001 { v.append(Float(Double(rng.next() % 1_000_000) / 1_000_000 * 2.4 - 1.2)) }
        return v
    }()

    @Test(arguments: [1.0, 0.731, 1.9] as [Float])
    func encodeMatchesTheScalarRule(scale: Float) {
        var codes = [Int16](repeating: 0, count: Self.values.count)
        let clipped = Self.values.withUnsafeBufferPointer { VectorKernels.encodePCM16($0, scale: scale, into: &codes) }
        var expectedClipped = 0
        for (i, v) in Self.values.enumerated() {
            let value = v * scale
            #expect(codes[i] == PCM16.encode(value), "sample \(i): \(value * 32768)")
            let exact = (Double(value) * 32768).rounded(.toNearestOrAwayFromZero)
            #expect(Int(codes[i]) == Int(min(max(exact, -32768), 32767)), "sample \(i)")
            if PCM16.clips(value) { expectedClipped += 1 }
        }
        #expect(clipped == expectedClipped)
        #expect(scale < 1 || clipped > 0)
    }

    @Test func mixSaturatesAndCountsExactEnergies() {
        var rng = SplitMix64(seed: 3)
        let n = 10_007
        let speech = (0..<n).map { i in i % 97 == 0 ? Int16.min : Int16(truncatingIfNeeded: rng.next()) }
        let noise = (0..<n).map { i in i % 89 == 0 ? Int16.min : Int16(truncatingIfNeeded: rng.next()) }
        var noisy = [Int16](repeating: 0, count: n)
        let result = speech.withUnsafeBufferPointer { s in
            noise.withUnsafeBufferPointer { m in noisy.withUnsafeMutableBufferPointer { VectorKernels.mixPCM16(speech: s, noise: m,
                                                                                                               into: $0) } }
        }
        var saturated = 0
        var energies: (UInt64, UInt64, UInt64) = (0, 0, 0)
        for i in 0..<n {
            let sum = Int(speech[i]) + Int(noise[i])
            let y = min(max(sum, -32768), 32767)
            if y != sum { saturated += 1 }
            #expect(Int(noisy[i]) == y)
            energies.0 += UInt64(Int(speech[i]) * Int(speech[i]))
            energies.1 += UInt64(Int(noise[i]) * Int(noise[i]))
            energies.2 += UInt64(y * y)
        }
        #expect(result.saturated == saturated && saturated > 100)
        #expect(result.speechEnergy == energies.0 && result.noiseEnergy == energies.1 && result.noisyEnergy == energies.2)
    }
}
