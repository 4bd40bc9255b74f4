import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The per-frame kernels (C, four bins at a time) against plain transcriptions, bin by bin, for bin
/// counts with and without a partial last block: the decision-directed frame in both of its builds,
/// on the first frame and after it, and spectral subtraction's sums and gains.
@Suite struct EnhancementKernelTests {
    static let parameters = DecisionDirectedKernel.Parameters(alpha: 0.98, ksiMin: pow(10, -2.5), gammaMax: 40,
                                                              minimumNoisePower: 1e-30, minimumV: 1e-12)

    /// The rule for one frame, one bin at a time: gains, updated clean power, and the detector's
    /// Σ v and Σ ln(1 + ξ) (the ln of each factor).
    static func reference(_ kind: DecisionDirectedKernel.Gain, power: [Double], noise: [Double], previous: [Double],
                          firstFrame: Bool) -> (gain: [Double], previous: [Double], vs: [Double], logs: [Double]) {
        let p = parameters
        var gains = [Double](), updated = [Double](), vs = [Double](), logs = [Double]()
        for k in power.indices {
            let lambda = max(noise[k], p.minimumNoisePower)
            let gamma = min(power[k] / lambda, p.gammaMax)
            let excess = max(gamma - 1, 0)
            let ksi = firstFrame ? p.alpha + (1 - p.alpha) * excess : max(p.ksiMin, p.alpha * previous[k] / lambda + (1 - p.alpha) * excess)
            let a = ksi / (1 + ksi), v = a * gamma
            let g = DecisionDirectedKernel.evaluate(.gain(kind), [a], [max(v, p.minimumV)])[0]
            gains.append(g); updated.append(g * g * power[k]); vs.append(v); logs.append(log(1 + ksi))
        }
        return (gains, updated, vs, logs)
    }

    @Test(arguments: [DecisionDirectedKernel.Gain.wiener, .spectralAmplitude, .logSpectralAmplitude])
    func frameMatchesTheRuleBinByBin(kind: DecisionDirectedKernel.Gain) {
        var rng = SplitMix64(seed: 7)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        for bins in [9, 12, 321] {
            // Noise levels over six decades, powers from 0 to 100 times the noise (some bins zero).
            let noise = (0..<bins).map { _ in pow(10, -6 * uniform()) }
            let power = noise.map { uniform() < 0.1 ? 0 : $0 * 100 * pow(uniform(), 3) }
            let previous = power.map { $0 * uniform() }
            for firstFrame in [true, false] {
                let expected = Self.reference(kind, power: power, noise: noise, previous: previous, firstFrame: firstFrame)
                for avx2 in VectorKernels.hasAVX2FMA ? [true, false] : [false] {
                    var p = power, n = noise, before = previous, g = [Double](repeating: .nan, count: bins)
                    let statistics = p.withUnsafeMutableBufferPointer { p in
                        n.withUnsafeMutableBufferPointer { n in
                            before.withUnsafeMutableBufferPointer { b in
                                g.withUnsafeMutableBufferPointer { g in
                                    DecisionDirectedKernel.frame(kind, power: p, noise: n, previous: b, gain: g,
                                                                 parameters: Self.parameters,
                                                                 firstFrame: firstFrame, detectNoise: true, avx2: avx2)
                                }
                            }
                        }
                    }
                    let label = "\(kind), \(bins) bins, first frame \(firstFrame), \(avx2 ? "AVX2 + FMA" : "baseline")"
                    func close(_ x: Double, _ y: Double, _ tolerance: Double = 1e-12) -> Bool { abs(x - y) <= tolerance * max(abs(y),
                                                                                                                              1e-300) }
                    #expect(zip(g, expected.gain).allSatisfy { close($0, $1) }, "gains, \(label)")
                    #expect(zip(before, expected.previous).allSatisfy { close($0, $1) }, "clean power, \(label)")
                    #expect(close(statistics.vSum, expected.vs.reduce(0, +)), "Σ v, \(label)")
                    #expect(close(statistics.logSum, expected.logs.reduce(0, +)), "Σ ln(1 + ξ), \(label)")
                    #expect(close(statistics.vFirst, expected.vs[0]) && close(statistics.vLast, expected.vs[bins - 1]),
                            "v at the ends, \(label)")
                    #expect(close(statistics.logFirst, expected.logs[0]) && close(statistics.logLast, expected.logs[bins - 1]),
                            "ln(1 + ξ) at the ends, \(label)")
                }
            }
        }
    }

    @Test func spectralSubtractionMatchesTheRuleBinByBin() {
        var rng = SplitMix64(seed: 11)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let floor = 1e-30, alpha = 3.2, beta = 0.002
        for bins in [9, 12, 321] {
            var noise = (0..<bins).map { _ in pow(10, -6 * uniform()) }
            noise[bins / 2] = 0  // floored
            var power = noise.map { uniform() < 0.1 ? 0 : $0 * 10 * pow(uniform(), 2) }
            var gain = [Double](repeating: .nan, count: bins)
            let (sums, _) = power.withUnsafeMutableBufferPointer { p in
                noise.withUnsafeMutableBufferPointer { n in
                    gain.withUnsafeMutableBufferPointer { g in
                        SpectralSubtractionKernel.gains(power: p, noise: n, into: g, overSubtraction: alpha, spectralFloor: beta,
                                                        minimumNoisePower: floor)
                        return (SpectralSubtractionKernel.sums(power: p, noise: n, minimumNoisePower: floor), 0)
                    }
                }
            }
            let lambda = noise.map { max($0, floor) }
            let expected = zip(power, lambda).map { p, l in p > 0 ? (max(p - alpha * l, beta * l) / p).squareRoot() : 0 }
            #expect(zip(gain, expected).allSatisfy { abs($0 - $1) <= 1e-12 * $1 }, "\(bins) bins")
            #expect(abs(sums.power - power.reduce(0, +)) <= 1e-12 * sums.power && abs(sums.noise - lambda.reduce(0,
                                                                                                                 +)) <= 1e-12 * sums.noise)
        }
    }
}
