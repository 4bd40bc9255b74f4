import CFFTW
import Foundation

/// Serialises FFTW plan creation and destruction, which FFTW does not make thread-safe
/// (`fftwf_plan_*`, `fftw_plan_*`, `fftw*_destroy_plan`). Executing a finished plan on new
/// arrays (`fftwf_execute_dft_r2c`, ...) is thread-safe and needs no lock.
enum FFTWPlanner {
    static let lock = NSLock()
}

/// An FFTW single-precision real FFT pair (r2c forward, c2r inverse) of one size.
///
/// Plans are made with `FFTW_ESTIMATE | FFTW_UNALIGNED` so they can be executed on any
/// Swift array; the inverse also has `FFTW_PRESERVE_INPUT` so it never writes its input.
final class FFTWRealPlanFloat: @unchecked Sendable {
    let size: Int
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan
    /// Plans made on SIMD-aligned arrays, used when both arrays of a call are aligned the same way
    /// (`fftwf_alignment_of` is 0): FFTW may then use its SIMD codelets.
    private let forwardAligned: fftwf_plan
    private let inverseAligned: fftwf_plan

    init(size: Int) {
        precondition(size > 0, "FFT size must be positive")
        self.size = size
        let bins = size / 2 + 1
        let real = fftwf_alloc_real(size)!
        let complex = fftwf_alloc_complex(bins)!
        defer { fftwf_free(real); fftwf_free(complex) }
        FFTWPlanner.lock.lock()
        forwardPlan = fftwf_plan_dft_r2c_1d(Int32(size), real, complex, sekit_fftw_estimate_unaligned())!
        inversePlan = fftwf_plan_dft_c2r_1d(Int32(size), complex, real, sekit_fftw_estimate_unaligned_preserve())!
        forwardAligned = fftwf_plan_dft_r2c_1d(Int32(size), real, complex, sekit_fftw_estimate())!
        inverseAligned = fftwf_plan_dft_c2r_1d(Int32(size), complex, real, sekit_fftw_estimate_preserve())!
        FFTWPlanner.lock.unlock()
    }

    deinit {
        FFTWPlanner.lock.lock()
        fftwf_destroy_plan(forwardPlan)
        fftwf_destroy_plan(inversePlan)
        fftwf_destroy_plan(forwardAligned)
        fftwf_destroy_plan(inverseAligned)
        FFTWPlanner.lock.unlock()
    }

    /// `fftwf_execute_dft_r2c`: `input` has `size` reals, `output` `2 * (size/2 + 1)` interleaved re/im.
    func forward(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>) {
        output.withMemoryRebound(to: fftwf_complex.self, capacity: size / 2 + 1) { out in
            let inp = UnsafeMutablePointer(mutating: input)
            let aligned = fftwf_alignment_of(inp) == 0 && fftwf_alignment_of(UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self)) == 0
            fftwf_execute_dft_r2c(aligned ? forwardAligned : forwardPlan, inp, out)
        }
    }

    /// `fftwf_execute_dft_c2r`: unnormalised (the result is `size` times the inverse DFT).
    func inverse(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>) {
        UnsafeMutablePointer(mutating: input).withMemoryRebound(to: fftwf_complex.self, capacity: size / 2 + 1) { inp in
            let aligned = fftwf_alignment_of(UnsafeMutableRawPointer(inp).assumingMemoryBound(to: Float.self)) == 0 && fftwf_alignment_of(output) == 0
            fftwf_execute_dft_c2r(aligned ? inverseAligned : inversePlan, inp, output)
        }
    }
}

/// An FFTW double-precision real FFT pair (r2c forward, c2r inverse) of one size.
/// Same conventions as ``FFTWRealPlanFloat``.
final class FFTWRealPlanDouble: @unchecked Sendable {
    let size: Int
    private let forwardPlan: fftw_plan
    private let inversePlan: fftw_plan
    /// Plans made on SIMD-aligned arrays, used when both arrays of a call are aligned the same way
    /// (`fftw_alignment_of` is 0): FFTW may then use its SIMD codelets.
    private let forwardAligned: fftw_plan
    private let inverseAligned: fftw_plan

    init(size: Int) {
        precondition(size > 0, "FFT size must be positive")
        self.size = size
        let bins = size / 2 + 1
        let real = fftw_alloc_real(size)!
        let complex = fftw_alloc_complex(bins)!
        defer { fftw_free(real); fftw_free(complex) }
        FFTWPlanner.lock.lock()
        forwardPlan = fftw_plan_dft_r2c_1d(Int32(size), real, complex, sekit_fftw_estimate_unaligned())!
        inversePlan = fftw_plan_dft_c2r_1d(Int32(size), complex, real, sekit_fftw_estimate_unaligned_preserve())!
        forwardAligned = fftw_plan_dft_r2c_1d(Int32(size), real, complex, sekit_fftw_estimate())!
        inverseAligned = fftw_plan_dft_c2r_1d(Int32(size), complex, real, sekit_fftw_estimate_preserve())!
        FFTWPlanner.lock.unlock()
    }

    deinit {
        FFTWPlanner.lock.lock()
        fftw_destroy_plan(forwardPlan)
        fftw_destroy_plan(inversePlan)
        fftw_destroy_plan(forwardAligned)
        fftw_destroy_plan(inverseAligned)
        FFTWPlanner.lock.unlock()
    }

    /// `fftw_execute_dft_r2c`: `input` has `size` reals, `output` `2 * (size/2 + 1)` interleaved re/im.
    func forward(_ input: UnsafePointer<Double>, _ output: UnsafeMutablePointer<Double>) {
        output.withMemoryRebound(to: fftw_complex.self, capacity: size / 2 + 1) { out in
            let inp = UnsafeMutablePointer(mutating: input)
            let aligned = fftw_alignment_of(inp) == 0 && fftw_alignment_of(UnsafeMutableRawPointer(out).assumingMemoryBound(to: Double.self)) == 0
            fftw_execute_dft_r2c(aligned ? forwardAligned : forwardPlan, inp, out)
        }
    }

    /// `fftw_execute_dft_c2r`: unnormalised (the result is `size` times the inverse DFT).
    func inverse(_ input: UnsafePointer<Double>, _ output: UnsafeMutablePointer<Double>) {
        UnsafeMutablePointer(mutating: input).withMemoryRebound(to: fftw_complex.self, capacity: size / 2 + 1) { inp in
            let aligned = fftw_alignment_of(UnsafeMutableRawPointer(inp).assumingMemoryBound(to: Double.self)) == 0 && fftw_alignment_of(output) == 0
            fftw_execute_dft_c2r(aligned ? inverseAligned : inversePlan, inp, output)
        }
    }
}
