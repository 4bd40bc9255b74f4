import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The mixer's signal helpers that work a block at a time give the whole-signal values, bit for bit.
@Suite struct MixSignalsTests {
    @Test func lowpassInBlocksEqualsFilteringTheWholeSignal() throws {
        let x = ConvolutionSegmentTests.signal(150_000, seed: 0.7)  // more than two 64k blocks
        var whole = x.map(Double.init)
        for q in [0.541_196_100_146_197, 1.306_562_964_876_377] {
            var filter = try BiquadFilter(.lowPass, frequencyHz: 3000, q: q, sampleRate: 16_000)
            filter.process(&whole)
        }
        #expect(MixSignals.lowpass(x, cutoffHz: 3000, sampleRate: 16_000) == whole.map(Float.init))
    }

    /// The loop is the period (the source without its last `fade` samples, its first `fade`
    /// crossfaded with them) repeated from the offset.
    @Test func loopedSegmentRepeatsTheCrossfadedPeriod() {
        let x = ConvolutionSegmentTests.signal(1_000, seed: 3.1)
        let fade = 64
        var period = Array(x[0..<(x.count - fade)])
        for j in 0..<fade {
            let w = Double(j + 1) / Double(fade + 1)
            period[j] = Float(w * Double(x[j]) + (1 - w) * Double(x[x.count - fade + j]))
        }
        for (offset, length) in [(0, 3_000), (10, 2_500), (950, 100), (999, 1_937), (500, 400)] {
            let expected = offset + length <= x.count ? Array(x[offset..<(offset + length)])
                : (0..<length).map { period[(offset % period.count + $0) % period.count] }
            #expect(MixSignals.loopedSegment(x, offset: offset, length: length, crossfade: fade) == expected,
                    "offset \(offset), length \(length)")
        }
    }
}
