import CFFTW
import Foundation

/// Serialises FFTW plan creation and destruction, which FFTW does not make thread-safe
/// (`fftwf_plan_*`, `fftw_plan_*`, `fftw*_destroy_plan`). Executing a finished plan on new
/// arrays (`fftwf_execute_dft_r2c`, ...) is thread-safe and needs no lock.
enum FFTWPlanner {
    static let lock = NSLock()
}

/// The FFTW API of one precision: `fftwf_*` for `Float`, `fftw_*` for `Double`. Plans of both
/// are `OpaquePointer`s; complex values are `FFTWComplex` (`fftwf_complex` / `fftw_complex`,
/// two reals, since the shim defines `FFTW_NO_Complex`).
protocol FFTWScalar: BinaryFloatingPoint {
    associatedtype FFTWComplex
    /// `fftw*_alloc_real`: `count` SIMD-aligned reals.
    static func fftwAllocReal(_ count: Int) -> UnsafeMutablePointer<Self>?
    /// `fftw*_alloc_complex`: `count` SIMD-aligned complex values.
    static func fftwAllocComplex(_ count: Int) -> UnsafeMutablePointer<FFTWComplex>?
    /// `fftw*_free`.
    static func fftwFree(_ pointer: UnsafeMutableRawPointer?)
    /// `fftw*_plan_dft_r2c_1d`.
    static func fftwPlanR2C(_ size: Int32, _ input: UnsafeMutablePointer<Self>, _ output: UnsafeMutablePointer<FFTWComplex>,
                            _ flags: UInt32) -> OpaquePointer?
    /// `fftw*_plan_dft_c2r_1d`.
    static func fftwPlanC2R(_ size: Int32, _ input: UnsafeMutablePointer<FFTWComplex>, _ output: UnsafeMutablePointer<Self>,
                            _ flags: UInt32) -> OpaquePointer?
    /// `fftw*_destroy_plan`.
    static func fftwDestroyPlan(_ plan: OpaquePointer)
    /// `fftw*_execute_dft_r2c` (new-array execution, thread-safe).
    static func fftwExecuteR2C(_ plan: OpaquePointer, _ input: UnsafeMutablePointer<Self>, _ output: UnsafeMutablePointer<FFTWComplex>)
    /// `fftw*_execute_dft_c2r` (new-array execution, thread-safe).
    static func fftwExecuteC2R(_ plan: OpaquePointer, _ input: UnsafeMutablePointer<FFTWComplex>, _ output: UnsafeMutablePointer<Self>)
    /// `fftw*_alignment_of`: 0 when `pointer` is aligned as FFTW's own allocations are.
    static func fftwAlignment(of pointer: UnsafeMutablePointer<Self>) -> Int32
}

extension Float: FFTWScalar {
    typealias FFTWComplex = fftwf_complex
    static func fftwAllocReal(_ count: Int) -> UnsafeMutablePointer<Float>? { fftwf_alloc_real(count) }
    static func fftwAllocComplex(_ count: Int) -> UnsafeMutablePointer<fftwf_complex>? { fftwf_alloc_complex(count) }
    static func fftwFree(_ pointer: UnsafeMutableRawPointer?) { fftwf_free(pointer) }
    static func fftwPlanR2C(_ size: Int32, _ input: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<fftwf_complex>,
                            _ flags: UInt32) -> OpaquePointer? { fftwf_plan_dft_r2c_1d(size, input, output, flags) }
    static func fftwPlanC2R(_ size: Int32, _ input: UnsafeMutablePointer<fftwf_complex>, _ output: UnsafeMutablePointer<Float>,
                            _ flags: UInt32) -> OpaquePointer? { fftwf_plan_dft_c2r_1d(size, input, output, flags) }
    static func fftwDestroyPlan(_ plan: OpaquePointer) { fftwf_destroy_plan(plan) }
    static func fftwExecuteR2C(_ plan: OpaquePointer, _ input: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<fftwf_complex>) {
        fftwf_execute_dft_r2c(plan, input, output)
    }
    static func fftwExecuteC2R(_ plan: OpaquePointer, _ input: UnsafeMutablePointer<fftwf_complex>, _ output: UnsafeMutablePointer<Float>) {
        fftwf_execute_dft_c2r(plan, input, output)
    }
    static func fftwAlignment(of pointer: UnsafeMutablePointer<Float>) -> Int32 { fftwf_alignment_of(pointer) }
}

extension Double: FFTWScalar {
    typealias FFTWComplex = fftw_complex
    static func fftwAllocReal(_ count: Int) -> UnsafeMutablePointer<Double>? { fftw_alloc_real(count) }
    static func fftwAllocComplex(_ count: Int) -> UnsafeMutablePointer<fftw_complex>? { fftw_alloc_complex(count) }
    static func fftwFree(_ pointer: UnsafeMutableRawPointer?) { fftw_free(pointer) }
    static func fftwPlanR2C(_ size: Int32, _ input: UnsafeMutablePointer<Double>, _ output: UnsafeMutablePointer<fftw_complex>,
                            _ flags: UInt32) -> OpaquePointer? { fftw_plan_dft_r2c_1d(size, input, output, flags) }
    static func fftwPlanC2R(_ size: Int32, _ input: UnsafeMutablePointer<fftw_complex>, _ output: UnsafeMutablePointer<Double>,
                            _ flags: UInt32) -> OpaquePointer? { fftw_plan_dft_c2r_1d(size, input, output, flags) }
    static func fftwDestroyPlan(_ plan: OpaquePointer) { fftw_destroy_plan(plan) }
    static func fftwExecuteR2C(_ plan: OpaquePointer, _ input: UnsafeMutablePointer<Double>, _ output: UnsafeMutablePointer<fftw_complex>) {
        fftw_execute_dft_r2c(plan, input, output)
    }
    static func fftwExecuteC2R(_ plan: OpaquePointer, _ input: UnsafeMutablePointer<fftw_complex>, _ output: UnsafeMutablePointer<Double>) {
        fftw_execute_dft_c2r(plan, input, output)
    }
    static func fftwAlignment(of pointer: UnsafeMutablePointer<Double>) -> Int32 { fftw_alignment_of(pointer) }
}

/// A real FFT pair of one size as ``RealFFT`` uses it, whatever the precision: both calls take
/// the arrays as raw pointers to `Scalar`s (the caller's element type is the plan's).
protocol FFTWRealTransform: AnyObject, Sendable {
    /// Forward r2c: `size` reals in, `size/2 + 1` interleaved re/im pairs out.
    func forward(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer)
    /// Inverse c2r, unnormalised: `size/2 + 1` interleaved re/im pairs in, `size` reals out.
    func inverse(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer)
}

/// An FFTW real FFT pair (r2c forward, c2r inverse) of one size, in `Scalar`'s precision.
///
/// Plans are made with `FFTW_ESTIMATE | FFTW_UNALIGNED` so they can be executed on any
/// Swift array; the inverse also has `FFTW_PRESERVE_INPUT` so it never writes its input.
final class FFTWRealPlan<Scalar: FFTWScalar>: FFTWRealTransform, @unchecked Sendable {
    let size: Int
    private let forwardPlan: OpaquePointer
    private let inversePlan: OpaquePointer
    /// Plans made on SIMD-aligned arrays, used when both arrays of a call are aligned the same way
    /// (`fftw*_alignment_of` is 0): FFTW may then use its SIMD codelets.
    private let forwardAligned: OpaquePointer
    private let inverseAligned: OpaquePointer

    init(size: Int) {
        precondition(size > 0, "FFT size must be positive")
        self.size = size
        let bins = size / 2 + 1
        let real = Scalar.fftwAllocReal(size)!
        let complex = Scalar.fftwAllocComplex(bins)!
        defer { Scalar.fftwFree(real); Scalar.fftwFree(complex) }
        let n = Int32(size)
        FFTWPlanner.lock.lock()
        forwardPlan = Scalar.fftwPlanR2C(n, real, complex, sekit_fftw_estimate_unaligned())!
        inversePlan = Scalar.fftwPlanC2R(n, complex, real, sekit_fftw_estimate_unaligned_preserve())!
        forwardAligned = Scalar.fftwPlanR2C(n, real, complex, sekit_fftw_estimate())!
        inverseAligned = Scalar.fftwPlanC2R(n, complex, real, sekit_fftw_estimate_preserve())!
        FFTWPlanner.lock.unlock()
    }

    deinit {
        FFTWPlanner.lock.lock()
        for plan in [forwardPlan, inversePlan, forwardAligned, inverseAligned] { Scalar.fftwDestroyPlan(plan) }
        FFTWPlanner.lock.unlock()
    }

    /// Whether both arrays of a call are aligned as FFTW's allocations are.
    private static func aligned(_ real: UnsafeMutablePointer<Scalar>, _ complex: UnsafeMutableRawPointer) -> Bool {
        Scalar.fftwAlignment(of: real) == 0 && Scalar.fftwAlignment(of: complex.assumingMemoryBound(to: Scalar.self)) == 0
    }

    /// `fftw*_execute_dft_r2c`: `input` has `size` reals, `output` `2 * (size/2 + 1)` interleaved re/im.
    func forward(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) {
        let real = UnsafeMutableRawPointer(mutating: input).assumingMemoryBound(to: Scalar.self)
        let plan = Self.aligned(real, output) ? forwardAligned : forwardPlan
        output.withMemoryRebound(to: Scalar.FFTWComplex.self, capacity: size / 2 + 1) { complex in
            Scalar.fftwExecuteR2C(plan, real, complex)
        }
    }

    /// `fftw*_execute_dft_c2r`: unnormalised (the result is `size` times the inverse DFT).
    func inverse(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) {
        let complexInput = UnsafeMutableRawPointer(mutating: input)
        let real = output.assumingMemoryBound(to: Scalar.self)
        let plan = Self.aligned(real, complexInput) ? inverseAligned : inversePlan
        complexInput.withMemoryRebound(to: Scalar.FFTWComplex.self, capacity: size / 2 + 1) { complex in
            Scalar.fftwExecuteC2R(plan, complex, real)
        }
    }
}
