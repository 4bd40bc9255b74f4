import CKernels
import Foundation

/// SEKit's hand-vectorised C kernels (`CKernels`), for the loops where the baseline x86-64
/// build (2-wide SSE2 doubles) leaves most of the CPU unused.
///
/// The 16-bit kernels (``encodePCM16(_:scale:into:)``, ``mixPCM16(speech:noise:into:)``) are
/// SSE2, the x86-64 baseline, and always used. The dot products exist only for CPUs with AVX2
/// and FMA; ``hasAVX2FMA`` says whether to use them, and callers keep a portable Swift loop for
/// the others. Results of those two paths differ only by rounding (FMA rounds once per tap), far
/// below any tolerance SEKit tests to.
package enum VectorKernels {
    /// Whether the kernels are used: the CPU and OS support AVX2 and FMA (checked once per
    /// process) and `SEKIT_PORTABLE_KERNELS` is not set to 1 (set it to get the numbers a
    /// machine without AVX2 gets, bit for bit, or to time the portable loops).
    package static let hasAVX2FMA = sekit_cpu_has_avx2_fma() != 0 && ProcessInfo.processInfo.environment["SEKIT_PORTABLE_KERNELS"] != "1"

    /// Σ a[t]·b[t], t < count (a multiple of 4), in four lane sums combined as (s0 + s2) + (s1 + s3).
    /// Only when ``hasAVX2FMA``.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count: Int) -> Double {
        sekit_dot_avx2(a, b, count)
    }

    /// The four sums Σ a[t]·b[t + k·spacing], k = 0...3, t < count (a multiple of 4), each
    /// summed as ``dot(_:_:count:)`` sums. Only when ``hasAVX2FMA``.
    @inline(__always)
    static func dot4(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, spacing: Int, count: Int) -> SIMD4<Double> {
        var out = SIMD4<Double>()
        withUnsafeMutableBytes(of: &out) { sekit_dot4_avx2(a, b, spacing, count, $0.baseAddress!.assumingMemoryBound(to: Double.self)) }
        return out
    }
}

extension VectorKernels {
    /// The noisy stem of a 16-bit mix and the exact energies of the three stems.
    package struct PCM16Mix {
        /// Samples where speech + noise left the 16-bit range (saturated in `noisy`).
        package var saturated: Int
        /// Σ code² of speech, noise and noisy (exact).
        package var speechEnergy: UInt64, noiseEnergy: UInt64, noisyEnergy: UInt64

        package init(saturated: Int, speechEnergy: UInt64, noiseEnergy: UInt64, noisyEnergy: UInt64) {
            self.saturated = saturated
            self.speechEnergy = speechEnergy; self.noiseEnergy = noiseEnergy; self.noisyEnergy = noisyEnergy
        }
    }

    /// noisy[i] = speech[i] + noise[i] saturated to 16 bits, for every i, with the sums of squares
    /// of all three (SSE2). The three buffers have the same count.
    package static func mixPCM16(speech: UnsafeBufferPointer<Int16>, noise: UnsafeBufferPointer<Int16>,
                         into noisy: UnsafeMutableBufferPointer<Int16>) -> PCM16Mix {
        precondition(speech.count == noise.count && noise.count == noisy.count, "mixPCM16: lengths differ")
        guard let s = speech.baseAddress, let n = noise.baseAddress, let y = noisy.baseAddress else {
            return PCM16Mix(saturated: 0, speechEnergy: 0, noiseEnergy: 0, noisyEnergy: 0)
        }
        var energies: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let saturated = withUnsafeMutableBytes(of: &energies) {
            sekit_pcm16_mix(s, n, y, speech.count, $0.baseAddress!.assumingMemoryBound(to: UInt64.self))
        }
        return PCM16Mix(saturated: saturated, speechEnergy: energies.0, noiseEnergy: energies.1, noisyEnergy: energies.2)
    }
}

extension VectorKernels {
    /// 16-bit codes of samples[i]·scale by ``PCM16``'s rule (rounded to nearest, ties away from
    /// zero, clipped) into `out`; returns how many clip (SSE2). `samples` must be finite.
    static func encodePCM16(_ samples: UnsafeBufferPointer<Float>, scale: Float, into out: UnsafeMutablePointer<Int16>) -> Int {
        guard let base = samples.baseAddress else { return 0 }
        return sekit_pcm16_encode(base, samples.count, scale, out)
    }
}
