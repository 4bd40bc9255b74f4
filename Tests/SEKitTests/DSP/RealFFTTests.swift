import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct RealFFTTests {
    /// Naive DFT for comparison.
    func naiveDFT(_ x: [Double]) -> [Double] {
        let n = x.count
        var out = [Double](repeating: 0, count: 2 * (n / 2 + 1))
        for k in 0...(n / 2) {
            var re = 0.0, im = 0.0
            for t in 0..<n {
                let angle = -2 * Double.pi * Double(k * t) / Double(n)
                re += x[t] * cos(angle); im += x[t] * sin(angle)
            }
            out[2 * k] = re; out[2 * k + 1] = im
        }
        return out
    }

    @Test(arguments: [8, 15, 256, 400])
    func doubleMatchesNaiveDFT(size: Int) {
        var generator = SystemRandomNumberGenerator()
        let x = (0..<size).map { _ in Double.random(in: -1...1, using: &generator) }
        let fast = RealFFT.double(size: size).forward(x)
        let slow = naiveDFT(x)
        for i in fast.indices { #expect(abs(fast[i] - slow[i]) < 1e-9) }
    }

    @Test(arguments: [16, 512, 1000])
    func floatRoundTrip(size: Int) {
        let x = (0..<size).map { Float(sin(Double($0) * 0.37) + 0.25 * cos(Double($0) * 1.9)) }
        let fft = RealFFT.float(size: size)
        let back = fft.inverse(fft.forward(x))
        for i in x.indices { #expect(abs(back[i] - x[i]) < 1e-5) }
    }

    @Test func plansAreCachedAndConcurrentUseIsSafe() {
        #expect(RealFFT.float(size: 512) === RealFFT.float(size: 512))
        let x = (0..<512).map { Float($0 % 17) / 17 }
        let expected = RealFFT.float(size: 512).forward(x)
        nonisolated(unsafe) var mismatches = [Int](repeating: 0, count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let fft = RealFFT.float(size: 512)
            for _ in 0..<200 where fft.forward(x) != expected { mismatches[i] += 1 }
        }
        #expect(mismatches.reduce(0, +) == 0)
    }
}
