import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The blockwise convolution of Float input gives the whole-signal convolution's values, bit for bit.
@Suite struct ConvolutionSegmentTests {
    static func signal(_ n: Int, seed: Double) -> [Float] { OctaveResamplerTests.modulated(n, seed: seed,
                                                                                           rate: 0.0007).map { Float($0 * 0.3) } }

    @Test(arguments: [40, 2_000, 5_000])
    func segmentsEqualTheFullConvolution(kernelLength: Int) {
        let x = Self.signal(30_000, seed: 1.3), h = Self.signal(kernelLength, seed: 2.9)
        let full = Convolution.fft(x.map(Double.init), h.map(Double.init))
        for (start, length) in [(0, x.count), (17, 12_345), (kernelLength / 2, x.count), (full.count - 10, 40)] {
            let segment = Convolution.fftSegment(x, h, start: start, length: length)
            let expected = (0..<length).map { start + $0 < full.count ? Float(full[start + $0]) : 0 }
            #expect(segment == expected, "kernel \(kernelLength), start \(start), length \(length)")
        }
    }
}
