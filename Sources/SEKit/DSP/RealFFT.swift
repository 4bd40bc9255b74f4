import Foundation

/// A real-input FFT of a fixed size, in single (`Float`) or double (`Double`) precision,
/// backed by FFTW (`fftwf_plan_dft_r2c_1d` / `fftw_plan_dft_r2c_1d`).
///
/// Plans are created once per size and precision, under a lock (FFTW planning is not
/// thread-safe), cached for the life of the process, and then executed concurrently from any
/// thread. Get one with ``RealFFT/float(size:)`` or ``RealFFT/double(size:)``.
///
/// Conventions (the same as `numpy.fft.rfft` / `irfft` without normalisation on the forward
/// side): the forward transform of `size` reals gives `size/2 + 1` complex bins, stored
/// interleaved as `[re0, im0, re1, im1, ...]`; ``inverse(_:into:)`` divides by `size`, so
/// `inverse(forward(x)) == x`.
public final class RealFFT<Scalar: BinaryFloatingPoint & Sendable>: @unchecked Sendable {
    /// Transform length in samples.
    public let size: Int
    /// Number of complex bins, `size / 2 + 1`.
    public var binCount: Int { size / 2 + 1 }

    private let floatPlan: FFTWRealPlanFloat?
    private let doublePlan: FFTWRealPlanDouble?

    fileprivate init(size: Int, floatPlan: FFTWRealPlanFloat?, doublePlan: FFTWRealPlanDouble?) {
        self.size = size
        self.floatPlan = floatPlan
        self.doublePlan = doublePlan
    }

    /// Forward transform. `input.count == size`; `output.count == 2 * binCount` (interleaved re/im).
    /// Complexity: O(size log size). Thread-safe. Allocates nothing.
    public func forward(_ input: UnsafeBufferPointer<Scalar>, into output: UnsafeMutableBufferPointer<Scalar>) {
        precondition(input.count == size && output.count == 2 * binCount, "RealFFT.forward: buffer sizes")
        if let plan = floatPlan {
            let inp = UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: Float.self)
            let out = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: Float.self)
            plan.forward(inp, out)
        } else if let plan = doublePlan {
            let inp = UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: Double.self)
            let out = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: Double.self)
            plan.forward(inp, out)
        }
    }

    /// Inverse transform, normalised by `1/size`. `input.count == 2 * binCount`; `output.count == size`.
    /// The imaginary parts of bin 0 and (for even sizes) bin `size/2` are ignored. The input is not modified.
    public func inverse(_ input: UnsafeBufferPointer<Scalar>, into output: UnsafeMutableBufferPointer<Scalar>) {
        precondition(input.count == 2 * binCount && output.count == size, "RealFFT.inverse: buffer sizes")
        if let plan = floatPlan {
            let inp = UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: Float.self)
            let out = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: Float.self)
            plan.inverse(inp, out)
        } else if let plan = doublePlan {
            let inp = UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: Double.self)
            let out = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: Double.self)
            plan.inverse(inp, out)
        }
        let scale = 1 / Scalar(size)
        for i in 0..<size { output[i] *= scale }
    }

    /// Forward transform of an array; returns `2 * binCount` interleaved re/im values.
    public func forward(_ input: [Scalar]) -> [Scalar] {
        [Scalar](unsafeUninitializedCapacity: 2 * binCount) { out, count in
            input.withUnsafeBufferPointer { forward($0, into: out) }
            count = 2 * binCount
        }
    }

    /// Inverse transform of interleaved re/im bins; returns `size` real samples.
    public func inverse(_ input: [Scalar]) -> [Scalar] {
        [Scalar](unsafeUninitializedCapacity: size) { out, count in
            input.withUnsafeBufferPointer { inverse($0, into: out) }
            count = size
        }
    }
}

/// Process-wide plan cache, keyed by size; plans live until the process ends.
private enum RealFFTCache {
    nonisolated(unsafe) static var floats: [Int: RealFFT<Float>] = [:]
    nonisolated(unsafe) static var doubles: [Int: RealFFT<Double>] = [:]
    static let lock = NSLock()
}

extension RealFFT where Scalar == Float {
    /// The cached single-precision real FFT of `size` points (created on first use).
    public static func float(size: Int) -> RealFFT<Float> {
        RealFFTCache.lock.lock(); defer { RealFFTCache.lock.unlock() }
        if let plan = RealFFTCache.floats[size] { return plan }
        let plan = RealFFT<Float>(size: size, floatPlan: FFTWRealPlanFloat(size: size), doublePlan: nil)
        RealFFTCache.floats[size] = plan
        return plan
    }
}

extension RealFFT where Scalar == Double {
    /// The cached double-precision real FFT of `size` points (created on first use).
    public static func double(size: Int) -> RealFFT<Double> {
        RealFFTCache.lock.lock(); defer { RealFFTCache.lock.unlock() }
        if let plan = RealFFTCache.doubles[size] { return plan }
        let plan = RealFFT<Double>(size: size, floatPlan: nil, doublePlan: FFTWRealPlanDouble(size: size))
        RealFFTCache.doubles[size] = plan
        return plan
    }
}
