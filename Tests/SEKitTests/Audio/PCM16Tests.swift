import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The branch-free 16-bit encoder gives the codes of the plain definition: round half away from
/// zero, clip to [-32768, 32767], count clipped samples.
@Suite struct PCM16Tests {
    static func reference(_ value: Float) -> Int16 {
        let scaled = (value * 32768).rounded()
        return scaled >= 32767 ? 32767 : scaled <= -32768 ? -32768 : Int16(scaled)
    }

    @Test func encoderMatchesTheDefinitionOnTiesEdgesAndRandomValues() {
        var values: [Float] = [0, -0.0, 1, -1, 2, -2, 0.99999, -0.99999, 1e-9, -1e-9, 32767.5 / 32768, -32768.5 / 32768,
                               Float.greatestFiniteMagnitude, -Float.greatestFiniteMagnitude]
        for k in -40_000...40_000 { values.append((Float(k) + 0.5) / 32768); values.append(Float(k) / 32768) }
        var generator = SplitMix64(seed: 9)
        for _ in 0..<200_000 { values.append(Float(Double(generator.next() % 4_000_000) / 1_000_000 - 2)) }
        var codes = [Int16](repeating: 0, count: values.count)
        let clipped = values.withUnsafeBufferPointer { PCM16.encode($0, into: &codes) }
        var expectedClipped = 0
        for (i, v) in values.enumerated() {
            #expect(codes[i] == Self.reference(v), "value \(v)")
            #expect(PCM16.encode(v) == Self.reference(v), "value \(v)")
            if PCM16.clips(v) { expectedClipped += 1 }
            if codes[i] != Self.reference(v) { break }
        }
        #expect(clipped == expectedClipped && clipped > 0)
        // The mixer's path, with a scale, gives the codes of x * scale (Float product), tail included.
        let scaled = Array(values.prefix(100_003))
        let direct = PCM16.encode(scaled, scale: 1.3)
        #expect(direct == scaled.map { PCM16.encode($0 * 1.3) })
    }
}
