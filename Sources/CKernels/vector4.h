// Four-lane double vectors on clang's generic vector types, for the kernels that are compiled once
// for the x86-64 baseline and once for AVX2 + FMA (decision_directed.c, spectral_subtraction.c).
// Private to CKernels (not under include/).
#ifndef SEKIT_VECTOR4_H
#define SEKIT_VECTOR4_H

#include <string.h>

typedef double f64x4 __attribute__((ext_vector_type(4)));
typedef unsigned long long u64x4 __attribute__((ext_vector_type(4)));
// What a comparison of two f64x4 gives: 64-bit lanes of all ones (true) or zeros.
typedef __typeof__((f64x4){0} < (f64x4){0}) i64x4;

// Every helper is always inlined, so no 4-lane vector crosses a call (the ABI warning is moot).
#pragma clang diagnostic ignored "-Wpsabi"
#define INLINE static inline __attribute__((always_inline))

INLINE f64x4 load(const double *p) { f64x4 v; memcpy(&v, p, sizeof v); return v; }
INLINE void store(double *p, f64x4 v) { memcpy(p, &v, sizeof v); }
INLINE f64x4 splat(double x) { return (f64x4){x, x, x, x}; }

// mask ? a : b per lane (mask lanes are all ones or all zeros, as comparisons give).
INLINE f64x4 select(i64x4 mask, f64x4 a, f64x4 b) {
    return (f64x4)(((i64x4)a & mask) | ((i64x4)b & ~mask));
}
INLINE f64x4 vmax(f64x4 a, f64x4 b) { return select(a > b, a, b); }
INLINE f64x4 vmin(f64x4 a, f64x4 b) { return select(a < b, a, b); }
INLINE f64x4 vsqrt(f64x4 x) { return __builtin_elementwise_sqrt(x); }
// Whether any lane, or every lane, of a mask is set.
INLINE int any(i64x4 mask) { return __builtin_reduce_or(mask) != 0; }
INLINE int all(i64x4 mask) { return __builtin_reduce_and(mask) != 0; }
// (l0 + l2) + (l1 + l3).
INLINE double lane_sum(f64x4 v) { return (v.x + v.z) + (v.y + v.w); }

#endif
