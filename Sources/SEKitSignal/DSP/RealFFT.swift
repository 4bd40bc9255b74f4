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

    private let plan: any FFTWRealTransform

    private init(size: Int, plan: any FFTWRealTransform) {
        self.size = size
        self.plan = plan
    }

    /// Forward transform. `input.count == size`; `output.count == 2 * binCount` (interleaved re/im).
    /// Complexity: O(size log size). Thread-safe. Allocates nothing.
    public func forward(_ input: UnsafeBufferPointer<Scalar>, into output: UnsafeMutableBufferPointer<Scalar>) {
        precondition(input.count == size && output.count == 2 * binCount, "RealFFT.forward: buffer sizes")
        plan.forward(input.baseAddress!, output.baseAddress!)
    }

    /// Inverse transform, normalised by `1/size`. `input.count == 2 * binCount`; `output.count == size`.
    /// The imaginary parts of bin 0 and (for even sizes) bin `size/2` are ignored. The input is not modified.
    public func inverse(_ input: UnsafeBufferPointer<Scalar>, into output: UnsafeMutableBufferPointer<Scalar>) {
        precondition(input.count == 2 * binCount && output.count == size, "RealFFT.inverse: buffer sizes")
        plan.inverse(input.baseAddress!, output.baseAddress!)
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

/// Process-wide plan cache, keyed by precision and size; plans live until the process ends.
private enum RealFFTCache {
    struct Key: Hashable {
        let scalar: ObjectIdentifier
        let size: Int
    }
    nonisolated(unsafe) static var transforms: [Key: AnyObject] = [:]
    static let lock = NSLock()
}

extension RealFFT {
    /// The cached transform of `size` points in `Scalar`'s precision, planned with `plan` on first use.
    private static func cached(size: Int, plan: (Int) -> any FFTWRealTransform) -> RealFFT<Scalar> {
        let key = RealFFTCache.Key(scalar: ObjectIdentifier(Scalar.self), size: size)
        RealFFTCache.lock.lock(); defer { RealFFTCache.lock.unlock() }
        if let fft = RealFFTCache.transforms[key] { return fft as! RealFFT<Scalar> }
        let fft = RealFFT(size: size, plan: plan(size))
        RealFFTCache.transforms[key] = fft
        return fft
    }
}

extension RealFFT where Scalar == Float {
    /// The cached single-precision real FFT of `size` points (created on first use).
    public static func float(size: Int) -> RealFFT<Float> { cached(size: size, plan: FFTWRealPlan<Float>.init) }
}

extension RealFFT where Scalar == Double {
    /// The cached double-precision real FFT of `size` points (created on first use).
    public static func double(size: Int) -> RealFFT<Double> { cached(size: size, plan: FFTWRealPlan<Double>.init) }

    /// A double-precision real FFT of `size` points that is not cached: for a length used once (a
    /// transform over a whole clip, whose length varies clip to clip); its plans are freed with it.
    public static func uncachedDouble(size: Int) -> RealFFT<Double> { RealFFT(size: size, plan: FFTWRealPlan<Double>(size: size)) }
}
