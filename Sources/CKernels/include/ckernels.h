// Hand-vectorised kernels for SEKit's hot loops, with run-time CPU dispatch.
//
// The package is built for the x86-64 baseline (SSE2), so Swift's SIMD types compile to
// 2-wide double operations. The kernels here are compiled for AVX2 + FMA as well, in
// functions that are only called when the CPU reports both (sekit_cpu_has_avx2_fma), so one
// binary runs on any x86-64 machine and uses the wider units where they exist.
//
// Only SEKit's Internal/ folder calls these (through VectorKernels.swift).
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

#ifdef __cplusplus
}
#endif

#endif
