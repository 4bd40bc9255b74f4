import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The polyphase resampler against the textbook definition of scipy's `resample_poly` (upsample
/// by inserting zeros, filter with up·h, keep every down-th sample from resample_poly's offset),
/// and against scipy itself when Python is configured.
@Suite struct OctaveResamplerTests {
    /// Slow and obvious: O(n·up·taps).
    static func direct(_ x: [Double], up: Int, down: Int) -> [Double] {
        let h = OctaveResampler.filter(up: up, down: down).map { $0 * Double(up) }
        let half = (h.count - 1) / 2
        let prePad = down - half % down
        let preRemove = (half + prePad) / down
        let outputs = (x.count * up + down - 1) / down
        return (0..<outputs).map { i in
            let m = (i + preRemove) * down
            var acc = 0.0
            for j in 0..<(h.count + prePad) where j >= prePad {
                let u = m - j
                if u >= 0 && u % up == 0 && u / up < x.count { acc += h[j - prePad] * x[u / up] }
            }
            return acc
        }
    }

    static func signal(_ n: Int, seed: Double) -> [Double] {
        var x = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i)
            x[i] = sin(t * 0.0123 * seed) + 0.3 * cos(t * 0.41 + seed)
        }
        return x
    }

    /// A speech-like test signal: `signal` with a slow amplitude modulation.
    static func modulated(_ n: Int, seed: Double, rate: Double) -> [Double] {
        var x = signal(n, seed: seed)
        for i in 0..<n { x[i] *= 1 + sin(Double(i) * rate) }
        return x
    }

    /// a + gain·b.
    static func mix(_ a: [Double], _ b: [Double], gain: Double) -> [Double] {
        var out = a
        for i in out.indices { out[i] += gain * b[i] }
        return out
    }

    @Test(arguments: [(10_000, 16_000), (10_000, 8_000), (10_000, 48_000), (10_000, 44_100), (3, 2)])
    func matchesTheDefinition(rates: (Int, Int)) {
        let (p, q) = rates
        let g = OctaveResampler.gcd(p, q)
        let x = Self.signal(q == 44_100 ? 9_000 : 3_001, seed: 1.7)
        let fast = OctaveResampler.resample(x, to: p, from: q)
        let slow = Self.direct(x, up: p / g, down: q / g)
        #expect(fast.count == slow.count)
        let worst = zip(fast, slow).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-12, "\(q) -> \(p): max difference \(worst)")
    }

    /// The AVX2/FMA kernels (used when the CPU has them) against the portable Swift loops: the
    /// same sums up to rounding, and dot4's four sums bit-equal to four separate dots, so an
    /// output does not depend on which outputs are computed with it.
    @Test(.enabled(if: VectorKernels.hasAVX2FMA, "the CPU has no AVX2/FMA"), arguments: [4, 8, 120, 332])
    func vectorKernelsAgreeWithThePortableLoops(count: Int) {
        let taps = Self.signal(count, seed: 0.7), x = Self.modulated(count + 3 * 8 + 5, seed: 1.3, rate: 0.01)
        taps.withUnsafeBufferPointer { a in
            x.withUnsafeBufferPointer { b in
                let a = a.baseAddress!, b = b.baseAddress! + 1  // unaligned on purpose
                let four = OctaveResampler.Bank.dot4(a, b, spacing: 8, count: count)
                let portable = OctaveResampler.Bank.portableDot4(a, b, spacing: 8, count: count)
                for k in 0..<4 {
                    #expect(four[k] == OctaveResampler.Bank.dot(a, b + 8 * k, count: count))
                    #expect(abs(four[k] - portable[k]) <= 1e-13 * max(1, abs(portable[k])))
                    #expect(abs(OctaveResampler.Bank.portableDot(a, b + 8 * k, count: count) - portable[k]) == 0)
                }
            }
        }
    }

    @Test func onlyTheRequestedOutputsAreComputedAndTheyAreExact() {
        let x = Self.signal(16_000, seed: 0.3)
        let full = OctaveResampler.resample(x, to: 10_000, from: 16_000)
        let ranges = [0..<7, 300..<556, 556..<700, 9_000..<9_003, full.count - 40..<full.count]
        let partial = OctaveResampler.resample(x, to: 10_000, from: 16_000, only: ranges)
        #expect(partial.count == full.count)
        for i in full.indices {
            if ranges.contains(where: { $0.contains(i) }) {
                #expect(partial[i] == full[i], "output \(i)")
            } else {
                #expect(partial[i] == 0, "output \(i) should not be computed")
            }
        }
    }

    @Test(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON"))
    func matchesScipyResamplePoly() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let x = Self.signal(20_000, seed: 2.1)
        try PythonReference.writeRaw(x, to: folder.file("x.f64"))
        let script = """
        import sys, numpy as np
        from pystoi.utils import resample_oct
        x = np.fromfile(sys.argv[1], '<f8')
        resample_oct(x, 10000, 16000).astype('<f8').tofile(sys.argv[2])
        """
        try PythonReference.run(script, arguments: [folder.file("x.f64").path, folder.file("y.f64").path])
        let reference = try PythonReference.readRawDoubles(folder.file("y.f64"))
        let ours = OctaveResampler.resample(x, to: 10_000, from: 16_000)
        #expect(ours.count == reference.count)
        let worst = zip(ours, reference).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-12, "max difference from pystoi's resample_oct: \(worst)")
    }
}

/// STOI and ESTOI share one analysis per pair of arrays; a different pair must never reuse it.
@Suite struct STOIAnalysisSharingTests {
    @Test func sharedAnalysisNeverLeaksToAnotherPair() throws {
        let clean = OctaveResamplerTests.modulated(24_000, seed: 1, rate: 0.002)
        let noise = OctaveResamplerTests.signal(24_000, seed: 7.3)
        let a = OctaveResamplerTests.mix(clean, noise, gain: 0.3)
        let b = OctaveResamplerTests.mix(clean, noise, gain: 1.5)
        let stoiA = try STOI.compute(reference: clean, processed: a, sampleRate: 16_000)
        let estoiA = try STOI.compute(reference: clean, processed: a, sampleRate: 16_000, extended: true)
        let stoiB = try STOI.compute(reference: clean, processed: b, sampleRate: 16_000)  // reuses the analysis of `clean`
        #expect(stoiA != stoiB)
        // Fresh copies (new storage) give the very same numbers.
        #expect(try STOI.compute(reference: clean.map { $0 }, processed: a.map { $0 }, sampleRate: 16_000) == stoiA)
        #expect(try STOI.compute(reference: clean.map { $0 }, processed: a.map { $0 }, sampleRate: 16_000, extended: true) == estoiA)
        #expect(try STOI.compute(reference: clean.map { $0 }, processed: b.map { $0 }, sampleRate: 16_000) == stoiB)
        // Same storage, other rate: not the same analysis.
        #expect(try STOI.compute(reference: clean, processed: a, sampleRate: 8_000) != stoiA)
    }

    @Test func manyPairsFromManyThreadsMatchSerialResults() throws {
        let clean = OctaveResamplerTests.modulated(20_000, seed: 2, rate: 0.003)
        let pairs: [[Double]] = (0..<12).map { (k: Int) -> [Double] in
            OctaveResamplerTests.mix(clean, OctaveResamplerTests.signal(20_000, seed: Double(k) + 0.5), gain: Double(k) * 0.2)
        }
        let serial = try pairs.map { try STOI.compute(reference: clean.map { $0 }, processed: $0.map { $0 }, sampleRate: 16_000) }
        nonisolated(unsafe) var parallel = [Double](repeating: .nan, count: pairs.count)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: pairs.count) { k in
            let value = (try? STOI.compute(reference: clean, processed: pairs[k], sampleRate: 16_000)) ?? .nan
            lock.lock(); parallel[k] = value; lock.unlock()
        }
        #expect(parallel == serial)
    }
}
