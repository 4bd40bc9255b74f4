// Hand-vectorised kernels for SEKit's hot loops, with run-time CPU dispatch.
//
// The package is built for the x86-64 baseline (SSE2), so Swift's SIMD types compile to
// 2-wide double operations. The kernels here are compiled for AVX2 + FMA as well, in
// functions that are only called when the CPU reports both (sekit_cpu_has_avx2_fma), so one
// binary runs on any x86-64 machine and uses the wider units where they exist.
//
// Only SEKit's Internal/ folder calls these (through VectorKernels.swift and DecisionDirectedKernel.swift).
#ifndef SEKIT_CKERNELS_H
#define SEKIT_CKERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when the CPU and the operating system support AVX2 and FMA (checked once), else 0.
int sekit_cpu_has_avx2_fma(void);

/// Σ a[t]·b[t] for t < count (a multiple of 4), AVX2 + FMA. Four running sums (lane t mod 4),
/// each tap's product fused into its sum, combined as (s0 + s2) + (s1 + s3).
/// Call only when sekit_cpu_has_avx2_fma() is 1.
double sekit_dot_avx2(const double *a, const double *b, long count);

/// The four sums Σ a[t]·b[t + k·spacing], k = 0...3, t < count (a multiple of 4), AVX2 + FMA,
/// each summed exactly as sekit_dot_avx2 sums it (so an output does not depend on which
/// outputs are computed with it). Writes them to out[0...3].
/// Call only when sekit_cpu_has_avx2_fma() is 1.
void sekit_dot4_avx2(const double *a, const double *b, long spacing, long count, double *out);

/// 16-bit codes of x[i]·scale for i < count, SEKit's PCM16 convention: the value times 32768,
/// clamped to [-32768, 32767] and rounded to nearest with ties away from zero (the codes of
/// `(x·scale·32768).rounded()` clipped). Returns how many samples clip (x·scale·32768 at or
/// beyond 32767.5 or below -32768.5). x must be finite. SSE2 (x86-64 baseline) or plain C.
long sekit_pcm16_encode(const float *x, long count, float scale, int16_t *out);

/// The noisy stem of a 16-bit mix: noisy[i] = speech[i] + noise[i], saturated to the 16-bit range,
/// for i < count. Returns how many samples saturated. Writes the exact sums of squares of the
/// three code arrays to energies[0] (speech), energies[1] (noise), energies[2] (noisy): the
/// realised powers of the written stems, with no rounding. SSE2 (x86-64 baseline) or plain C.
long sekit_pcm16_mix(const int16_t *speech, const int16_t *noise, int16_t *noisy, long count, uint64_t *energies);


/// The gains of the decision-directed enhancers (sekit enhance), as functions of A = xi/(1 + xi) and
/// v = A gamma (xi the a priori, gamma the a posteriori SNR):
/// - SEKIT_GAIN_WIENER: G = A (Scalart & Vieira Filho 1996);
/// - SEKIT_GAIN_SPECTRAL_AMPLITUDE: G = (sqrt(pi)/2) (A/sqrt v) [(1 + v) I0e(v/2) + v I1e(v/2)]
///   (Ephraim & Malah 1984, eq. 7), the bracket by M(-1/2; 1; -v)'s Taylor series for v <= 1;
/// - SEKIT_GAIN_LOG_SPECTRAL_AMPLITUDE: G = A exp(E1(v)/2) (Ephraim & Malah 1985, eq. 20).
enum { SEKIT_GAIN_WIENER = 0, SEKIT_GAIN_SPECTRAL_AMPLITUDE = 1, SEKIT_GAIN_LOG_SPECTRAL_AMPLITUDE = 2 };

/// The constants of the decision-directed rule (see sekit_decision_directed_frame).
typedef struct {
    double alpha;                /// alpha of the decision-directed estimate
    double ksi_min;              /// xi_min, linear
    double gamma_max;            /// gamma_max, linear
    double minimum_noise_power;  /// lambda is floored here before dividing by it
    double minimum_v;            /// v is floored here before the gain
} sekit_decision_directed_parameters;

/// The voice activity detector's statistics of one frame: sum over the bins given of v and of
/// ln(1 + xi), and both at the first and last bin (the caller extends them to the full spectrum).
typedef struct {
    double v_sum, log_sum;
    double v_first, v_last, log_first, log_last;
} sekit_decision_directed_statistics;

/// One frame of the decision-directed rule (Ephraim & Malah 1984, eq. 51), for every bin k < bins:
///   1/lambda = 1/max(noise[k], minimum_noise_power), gamma = min(power[k]/lambda, gamma_max),
///   xi = max(ksi_min, alpha previous[k]/lambda + (1 - alpha) max(gamma - 1, 0))
///        (alpha + (1 - alpha) max(gamma - 1, 0), unfloored, when first_frame),
///   A = xi/(1 + xi), v = A gamma, gain[k] = G(A, max(v, minimum_v)) (gain_kind, above),
///   previous[k] = gain[k]^2 power[k].
/// When detect_noise, fills *statistics (with the unfloored v), else zeroes it. Four bins at a time
/// with no branch; avx2 = 1 (only when sekit_cpu_has_avx2_fma() is 1) runs the AVX2 + FMA build,
/// which differs from the baseline build by rounding only. The sum of ln(1 + xi) is the logarithm of
/// a running product per lane (renormalised exactly through its bits), so it needs one log.
void sekit_decision_directed_frame(int gain_kind, const double *power, const double *noise, double *previous, double *gain,
                                   long bins, const sekit_decision_directed_parameters *parameters, int first_frame,
                                   int detect_noise, sekit_decision_directed_statistics *statistics, int avx2);

/// The approximations sekit_decision_directed_frame uses, evaluated over an array (for tests):
/// - SEKIT_FUNCTION_EXPONENTIAL: e^x for -708 <= x <= 709 (below -708 taken as -708): Cody & Waite
///   reduction, Taylor series to r^12; within 1e-15 of libm's exp.
/// - SEKIT_FUNCTION_EXPONENTIAL_OF_HALF_E1: exp(E1(x)/2) for x > 0; for x <= 1, e^(-gamma_E/2)
///   T(x)/sqrt(x) with T = exp(S/2) of the series S = E1 + gamma_E + ln x (Abramowitz & Stegun
///   5.1.11) as one power series to x^17 (relative error below 1e-12); above, e^h for h = E1/2 <= 0.11
///   by its Taylor series to h^8 with E1 from Abramowitz & Stegun 5.1.54 (2e-8 relative on E1).
/// - SEKIT_FUNCTION_SCALED_BESSEL_I0, _I1: e^-x I0(x), e^-x I1(x) for x > 0, Abramowitz & Stegun
///   9.8.1-9.8.4 (relative error below 5e-7).
/// - SEKIT_FUNCTION_CONFLUENT_HYPERGEOMETRIC_MINUS_HALF: M(-1/2; 1; -x) for 0 <= x <= 1, Taylor series
///   to x^11 (relative error below 1e-11).
/// - SEKIT_FUNCTION_GAIN + gain kind: G(A = x[i], v = y[i]) with v > 0 (not floored here).
/// y is read only for the gains (may be NULL otherwise).
enum {
    SEKIT_FUNCTION_EXPONENTIAL = 0,
    SEKIT_FUNCTION_EXPONENTIAL_OF_HALF_E1 = 1,
    SEKIT_FUNCTION_SCALED_BESSEL_I0 = 2,
    SEKIT_FUNCTION_SCALED_BESSEL_I1 = 3,
    SEKIT_FUNCTION_CONFLUENT_HYPERGEOMETRIC_MINUS_HALF = 4,
    SEKIT_FUNCTION_GAIN = 16,
};
void sekit_decision_directed_evaluate(int function, const double *x, const double *y, double *out, long count, int avx2);

/// Power spectral subtraction (sekit enhance --method specsub), one frame of bins k < bins:
/// out[0] = sum of power[k], out[1] = sum of max(noise[k], minimum_noise_power) (four running sums a
/// lane, combined as (l0 + l2) + (l1 + l3)). avx2 as for sekit_decision_directed_frame.
void sekit_spectral_subtraction_sums(const double *power, const double *noise, long bins, double minimum_noise_power,
                                     double *out, int avx2);

/// gain[k] = sqrt(max(P - alpha lambda, beta lambda)/P) with P = power[k] and
/// lambda = max(noise[k], minimum_noise_power), or 0 where P is 0; four bins at a time.
void sekit_spectral_subtraction_gains(const double *power, const double *noise, double *gain, long bins, double alpha,
                                      double beta, double minimum_noise_power, int avx2);

#ifdef __cplusplus
}
#endif

#endif
