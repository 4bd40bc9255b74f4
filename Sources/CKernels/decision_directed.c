// The per-frame work of the decision-directed enhancers (sekit enhance: mmse-stsa, logmmse,
// wiener): a priori SNR, voice-activity statistics, gain and clean-power update for every bin, and
// the special functions of the Ephraim-Malah gains, four bins at a time with no branch.
//
// One source for every CPU: the kernels are written on clang's generic 4-lane vector types
// (vector4.h) and compiled twice, for the x86-64 baseline (two SSE2 halves) and, in functions only
// called when the CPU has them, for AVX2 + FMA (where clang fuses a*b + c, so the two builds differ
// by rounding only). A piecewise approximation evaluates each of its forms when some lane of the
// four needs it and selects each lane's own, so lanes never branch apart.
#include "ckernels.h"

#include <math.h>

#include "vector4.h"

// ---------------------------------------------------------------------------------------------
// Special functions (double precision, fixed polynomial and rational forms).

// e^y for -708 <= y <= 709 (below -708 taken as -708): y = n ln2 + r, |r| <= ln2/2 (Cody & Waite's
// two-part ln 2, the fdlibm constants), e^r by its Taylor series to r^12 (Estrin; truncation below
// 2e-16), times 2^n built from the bits of the rounded y/ln2. Within 1e-15 of libm's exp.
INLINE f64x4 exponential(f64x4 value) {
    f64x4 y = vmax(value, splat(-708));
    const double rounding_shift = 6755399441055744.0;  // 1.5*2^52: adding it rounds to an integer
    f64x4 shifted = y * 1.4426950408889634 + rounding_shift;
    f64x4 nearest = shifted - rounding_shift;
    f64x4 r = (y - nearest * 6.93147180369123816490e-01) - nearest * 1.90821492927058770002e-10;
    f64x4 r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    f64x4 low = (1 + r) + r2 * (1.0 / 2 + r * (1.0 / 6));
    f64x4 middle = (1.0 / 24 + r * (1.0 / 120)) + r2 * (1.0 / 720 + r * (1.0 / 5040));
    f64x4 high = (1.0 / 40320 + r * (1.0 / 362880)) + r2 * (1.0 / 3628800 + r * (1.0 / 39916800)) + r4 * (1.0 / 479001600);
    f64x4 power = low + r4 * middle + r8 * high;
    // The low bits of `shifted` hold n (two's complement); n + 1023 shifted into the exponent.
    u64x4 scale = ((u64x4)shifted + 1023) << 52;
    return power * (f64x4)scale;
}

// e^(-gamma/2), gamma the Euler-Mascheroni constant.
static const double half_gamma_factor = 0.749306001288449;

// T(x) = exp(S(x)/2) for 0 <= x <= 1, with S(x) = E1(x) + gamma + ln x = sum_k (-1)^(k+1) x^k/(k k!):
// one power series truncated after x^17 (relative error below 1e-12): e0 = 1,
// e_n = (1/n) sum_{k=1..n} k (s_k/2) e_{n-k} with s_k = (-1)^(k+1)/(k k!) (e2 is 0). Estrin.
INLINE f64x4 half_exponential_of_series(f64x4 x) {
    f64x4 x2 = x * x, x4 = x2 * x2, x8 = x4 * x4, x16 = x8 * x8;
    f64x4 q0 = 1.0 + x * 0.5;                                          // e0, e1
    f64x4 q1 = 0.0 + x * -0.013888888888888888;                        // e2 = 0, e3 = -1/72
    f64x4 q2 = 0.003472222222222222 + x * -0.00020833333333333335;     // 1/288, -1/4800
    f64x4 q3 = -0.0001234567901234568 + x * 4.58632527084908e-05;      // -1/8100, 233/5080320
    f64x4 q4 = -7.071404950869236e-06 + x * -1.8435336240120192e-07;   // e8, e9
    f64x4 q5 = 3.9635881787557275e-07 + x * -1.0999048204247519e-07;   // e10, e11
    f64x4 q6 = 1.4754986700365727e-08 + x * 5.403214715436434e-10;     // e12, e13
    f64x4 q7 = -8.231092662383478e-10 + x * 2.265179424191189e-10;     // e14, e15
    f64x4 q8 = -3.340319871854808e-11 + x * 5.43810386041889e-13;      // e16, e17
    f64x4 r0 = q0 + x2 * q1, r1 = q2 + x2 * q3, r2 = q4 + x2 * q5, r3 = q6 + x2 * q7;
    return (r0 + x4 * r1) + x8 * (r2 + x4 * r3) + x16 * q8;
}

// E1(x) for x >= 1 from x e^x E1(x) ~ P4(x)/Q4(x), Abramowitz & Stegun 5.1.54 (|eps| < 5e-5 on
// x e^x E1 as printed; 2e-8 relative on E1 measured against SciPy).
INLINE f64x4 e1_rational(f64x4 x) {
    f64x4 p = (((x + 8.5733287401) * x + 18.0590169730) * x + 8.6347608925) * x + 0.2677737343;
    f64x4 q = (((x + 9.5733223454) * x + 25.6329561486) * x + 21.0996530827) * x + 3.9584969228;
    return exponential(-x) * p / (q * x);
}

// exp(E1(x)/2) for x > 0 (see the header); r = 1/sqrt(x). Each form is evaluated only when some
// lane needs it (neighbouring bins mostly lie on the same side of x = 1).
INLINE f64x4 exponential_of_half_e1(f64x4 x, f64x4 r) {
    i64x4 below = x <= 1;
    f64x4 series = splat(0), taylor = splat(0);
    if (any(below)) series = half_gamma_factor * half_exponential_of_series(x) * r;
    if (!all(below)) {
        f64x4 h = 0.5 * e1_rational(x), h2 = h * h, h4 = h2 * h2;
        f64x4 low = (1 + h) + h2 * (1.0 / 2 + h * (1.0 / 6));
        f64x4 high = (1.0 / 24 + h * (1.0 / 120)) + h2 * (1.0 / 720 + h * (1.0 / 5040)) + h4 * (1.0 / 40320);
        taylor = low + h4 * high;
    }
    return select(below, series, taylor);
}

// M(-1/2; 1; -v) for 0 <= v <= 1 by its Taylor series to v^11, m0 = 1,
// m_n = -m_{n-1} (n - 3/2)/n^2 (relative error below 1e-11 against SciPy's hyp1f1). Estrin.
INLINE f64x4 confluent_hypergeometric_minus_half(f64x4 v) {
    f64x4 v2 = v * v, v4 = v2 * v2, v8 = v4 * v4;
    f64x4 q0 = 1.0 + v * (1.0 / 2);
    f64x4 q1 = -1.0 / 16 + v * (1.0 / 96);
    f64x4 q2 = -5.0 / 3072 + v * (7.0 / 30720);
    f64x4 q3 = -7.0 / 245760 + v * (11.0 / 3440640);
    f64x4 q4 = -143.0 / 440401920 + v * (143.0 / 4756340736.0);
    f64x4 q5 = -2431.0 / 951268147200.0 + v * (4199.0 / 20927899238400.0);
    return (q0 + v2 * q1) + v4 * (q2 + v2 * q3) + v8 * (q4 + v2 * q5);
}

// (e^-x I0(x), e^-x I1(x)) for x >= 0: Abramowitz & Stegun 9.8.1 and 9.8.3 (x <= 3.75), 9.8.2
// and 9.8.4 (x > 3.75); relative error below 5e-7 against SciPy. r = 1/sqrt(x). `needed` marks the
// lanes whose values are used (the others may hold anything); each form is evaluated only when
// one of those lanes needs it.
INLINE void scaled_bessel_i0_i1(f64x4 x, f64x4 r, i64x4 needed, f64x4 *i0e, f64x4 *i1e) {
    i64x4 small = x <= 3.75;
    f64x4 i0_small = splat(0), i1_small = splat(0), i0_large = splat(0), i1_large = splat(0);
    if (any(needed & small)) {
        f64x4 t = x * (1 / 3.75), u = t * t;
        f64x4 i0 = 1 + u * (3.5156229 + u * (3.0899424 + u * (1.2067492 + u * (0.2659732 + u * (0.0360768 + u * 0.0045813)))));
        f64x4 i1 = x * (0.5 + u * (0.87890594 + u * (0.51498869 + u * (0.15084934 + u * (0.02658733 + u * (0.00301532 + u * 0.00032411))))));
        f64x4 scale = exponential(-x);
        i0_small = i0 * scale;
        i1_small = i1 * scale;
    }
    if (any(needed & ~small)) {
        f64x4 w = 3.75 * (r * r);
        f64x4 p0 = 0.39894228 + w * (0.01328592 + w * (0.00225319 + w * (-0.00157565 + w * (0.00916281
            + w * (-0.02057706 + w * (0.02635537 + w * (-0.01647633 + w * 0.00392377)))))));
        f64x4 p1 = 0.39894228 + w * (-0.03988024 + w * (-0.00362018 + w * (0.00163801 + w * (-0.01031555
            + w * (0.02282967 + w * (-0.02895312 + w * (0.01787654 - w * 0.00420059)))))));
        i0_large = p0 * r;
        i1_large = p1 * r;
    }
    *i0e = select(small, i0_small, i0_large);
    *i1e = select(small, i1_small, i1_large);
}

// ---------------------------------------------------------------------------------------------
// Gains, from A = xi/(1 + xi) and v = A gamma (v already floored), r = 1/sqrt(v).

// sqrt(pi)/2.
static const double half_root_pi = 0.88622692545275801365;
static const double root_two = 1.41421356237309504880;

INLINE f64x4 gain_of(int kind, f64x4 a, f64x4 v, f64x4 r) {
    switch (kind) {
    case SEKIT_GAIN_LOG_SPECTRAL_AMPLITUDE:
        return a * exponential_of_half_e1(v, r);
    case SEKIT_GAIN_SPECTRAL_AMPLITUDE: {
        // M(-1/2; 1; -v) for v <= 1, else from the Bessel functions (each only where needed).
        i64x4 series = v <= 1;
        f64x4 m = splat(0), i0e, i1e;
        if (any(series)) m = confluent_hypergeometric_minus_half(v);
        scaled_bessel_i0_i1(0.5 * v, root_two * r, ~series, &i0e, &i1e);
        f64x4 bracket = select(series, m, (1 + v) * i0e + v * i1e);
        return half_root_pi * a * r * bracket;
    }
    default:
        return a;
    }
}

// ---------------------------------------------------------------------------------------------
// The decision-directed frame.

// Running product of factors >= 1 kept per lane as m 2^e with m in [1, 2), renormalised after
// every factor through its bits (exactly), so it never overflows; ln = ln(prod m) + (sum e) ln 2.
typedef struct { f64x4 mantissa; u64x4 exponent; } lane_product;

INLINE void multiply(lane_product *p, f64x4 factor) {
    u64x4 bits = (u64x4)(p->mantissa * factor);
    p->exponent += (bits >> 52) - 1023;
    p->mantissa = (f64x4)((bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);
}

typedef struct {
    f64x4 v_sum;
    lane_product product;
} frame_sums;

// Bins k...k+3 (all valid; see frame() for the last, partial block). Returns 1 + xi.
INLINE f64x4 block(int kind, const double *power, const double *noise, double *previous, double *gain,
                   const sekit_decision_directed_parameters *p, int first_frame, int detect_noise,
                   frame_sums *sums, f64x4 *v_out) {
    f64x4 y2 = load(power);
    f64x4 inverse_noise = 1 / vmax(load(noise), splat(p->minimum_noise_power));
    f64x4 gamma = vmin(y2 * inverse_noise, splat(p->gamma_max));
    f64x4 excess = vmax(gamma - 1, splat(0));
    f64x4 ksi = first_frame ? p->alpha + (1 - p->alpha) * excess
                            : vmax(splat(p->ksi_min), p->alpha * load(previous) * inverse_noise + (1 - p->alpha) * excess);
    f64x4 factor = 1 + ksi;
    f64x4 a = ksi / factor;
    f64x4 v = a * gamma;
    if (detect_noise) {
        sums->v_sum += v;
        multiply(&sums->product, factor);
    }
    *v_out = v;
    f64x4 floored = vmax(v, splat(p->minimum_v));
    f64x4 g = gain_of(kind, a, floored, 1 / vsqrt(floored));
    store(gain, g);
    store(previous, g * g * y2);
    return factor;
}

INLINE void frame(int kind, const double *power, const double *noise, double *previous, double *gain, long bins,
                  const sekit_decision_directed_parameters *p, int first_frame, int detect_noise,
                  sekit_decision_directed_statistics *statistics) {
    frame_sums sums = {splat(0), {splat(1), (u64x4){0, 0, 0, 0}}};
    f64x4 v = splat(0), factor = splat(1);
    double v_first = 0, factor_first = 1;
    long k = 0;
    for (; k + 4 <= bins; k += 4) {
        factor = block(kind, power + k, noise + k, previous + k, gain + k, p, first_frame, detect_noise, &sums, &v);
        if (k == 0) { v_first = v.x; factor_first = factor.x; }
    }
    long rest = bins - k;
    double v_last, factor_last;
    if (rest > 0) {
        // The last bins through the same block, padded with lanes that add nothing: zero power,
        // unit noise (v = 0, 1 + xi = 1 after the first frame; masked below on it).
        double y2[4] = {0, 0, 0, 0}, lambda[4] = {1, 1, 1, 1}, before[4] = {0, 0, 0, 0}, g[4];
        memcpy(y2, power + k, rest * sizeof(double));
        memcpy(lambda, noise + k, rest * sizeof(double));
        memcpy(before, previous + k, rest * sizeof(double));
        frame_sums tail = {splat(0), {splat(1), (u64x4){0, 0, 0, 0}}};
        factor = block(kind, y2, lambda, before, g, p, first_frame, detect_noise, &tail, &v);
        memcpy(gain + k, g, rest * sizeof(double));
        memcpy(previous + k, before, rest * sizeof(double));
        i64x4 valid = (f64x4){0, 1, 2, 3} < (double)rest;
        if (detect_noise) {
            sums.v_sum += select(valid, v, splat(0));
            multiply(&sums.product, select(valid, factor, splat(1)));
        }
        if (k == 0) { v_first = v.x; factor_first = factor.x; }
        v_last = v[rest - 1]; factor_last = factor[rest - 1];
    } else {
        v_last = v.w; factor_last = factor.w;
    }
    if (!detect_noise) {
        *statistics = (sekit_decision_directed_statistics){0, 0, 0, 0, 0, 0};
        return;
    }
    f64x4 m = sums.product.mantissa;
    u64x4 e = sums.product.exponent;
    statistics->v_sum = lane_sum(sums.v_sum);
    statistics->log_sum = log((m.x * m.y) * (m.z * m.w)) + (double)(long long)(e.x + e.y + e.z + e.w) * M_LN2;
    statistics->v_first = v_first;
    statistics->v_last = v_last;
    statistics->log_first = log(factor_first);
    statistics->log_last = log(factor_last);
}

// The special functions and gains over arrays (for tests), through the same vector code.
INLINE void evaluate(int function, const double *x, const double *y, double *out, long count) {
    for (long k = 0; k < count; k += 4) {
        double in[4] = {1, 1, 1, 1}, second[4] = {1, 1, 1, 1}, result[4];
        long n = count - k < 4 ? count - k : 4;
        memcpy(in, x + k, n * sizeof(double));
        if (y) memcpy(second, y + k, n * sizeof(double));
        f64x4 u = load(in), w = load(second), i0e, i1e;
        switch (function) {
        case SEKIT_FUNCTION_EXPONENTIAL: store(result, exponential(u)); break;
        case SEKIT_FUNCTION_EXPONENTIAL_OF_HALF_E1: store(result, exponential_of_half_e1(u, 1 / vsqrt(u))); break;
        case SEKIT_FUNCTION_SCALED_BESSEL_I0:
        case SEKIT_FUNCTION_SCALED_BESSEL_I1:
            scaled_bessel_i0_i1(u, 1 / vsqrt(u), u == u, &i0e, &i1e);
            store(result, function == SEKIT_FUNCTION_SCALED_BESSEL_I0 ? i0e : i1e);
            break;
        case SEKIT_FUNCTION_CONFLUENT_HYPERGEOMETRIC_MINUS_HALF: store(result, confluent_hypergeometric_minus_half(u)); break;
        default:  // a gain: x holds A, y holds v
            store(result, gain_of(function - SEKIT_FUNCTION_GAIN, u, w, 1 / vsqrt(w)));
        }
        memcpy(out + k, result, n * sizeof(double));
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma")))
static void frame_avx2(int kind, const double *power, const double *noise, double *previous, double *gain, long bins,
                       const sekit_decision_directed_parameters *p, int first_frame, int detect_noise,
                       sekit_decision_directed_statistics *statistics) {
    frame(kind, power, noise, previous, gain, bins, p, first_frame, detect_noise, statistics);
}

__attribute__((target("avx2,fma")))
static void evaluate_avx2(int function, const double *x, const double *y, double *out, long count) {
    evaluate(function, x, y, out, count);
}
#endif

static void frame_baseline(int kind, const double *power, const double *noise, double *previous, double *gain, long bins,
                           const sekit_decision_directed_parameters *p, int first_frame, int detect_noise,
                           sekit_decision_directed_statistics *statistics) {
    frame(kind, power, noise, previous, gain, bins, p, first_frame, detect_noise, statistics);
}

static void evaluate_baseline(int function, const double *x, const double *y, double *out, long count) {
    evaluate(function, x, y, out, count);
}

void sekit_decision_directed_frame(int gain_kind, const double *power, const double *noise, double *previous, double *gain,
                                   long bins, const sekit_decision_directed_parameters *parameters, int first_frame,
                                   int detect_noise, sekit_decision_directed_statistics *statistics, int avx2) {
#if defined(__x86_64__)
    if (avx2) {
        frame_avx2(gain_kind, power, noise, previous, gain, bins, parameters, first_frame, detect_noise, statistics);
        return;
    }
#endif
    (void)avx2;
    frame_baseline(gain_kind, power, noise, previous, gain, bins, parameters, first_frame, detect_noise, statistics);
}

void sekit_decision_directed_evaluate(int function, const double *x, const double *y, double *out, long count, int avx2) {
#if defined(__x86_64__)
    if (avx2) {
        evaluate_avx2(function, x, y, out, count);
        return;
    }
#endif
    (void)avx2;
    evaluate_baseline(function, x, y, out, count);
}
