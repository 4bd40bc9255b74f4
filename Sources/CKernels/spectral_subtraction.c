// The per-frame work of power spectral subtraction (sekit enhance --method specsub): the frame's
// power sums and the gains, four bins at a time, compiled for the x86-64 baseline and for AVX2 +
// FMA like decision_directed.c.
#include "ckernels.h"

#include "vector4.h"

// The noise power divided by: lambda floored at minimum_noise_power.
INLINE f64x4 floored_noise(const double *noise, double minimum_noise_power) {
    return vmax(load(noise), splat(minimum_noise_power));
}

INLINE void sums(const double *power, const double *noise, long bins, double minimum_noise_power, double *out) {
    f64x4 power_sum = splat(0), noise_sum = splat(0);
    long k = 0;
    for (; k + 4 <= bins; k += 4) {
        power_sum += load(power + k);
        noise_sum += floored_noise(noise + k, minimum_noise_power);
    }
    // The last bins, padded with lanes that are masked out.
    double y2[4] = {0, 0, 0, 0}, lambda[4] = {0, 0, 0, 0};
    memcpy(y2, power + k, (bins - k) * sizeof(double));
    memcpy(lambda, noise + k, (bins - k) * sizeof(double));
    i64x4 valid = (f64x4){0, 1, 2, 3} < (double)(bins - k);
    power_sum += load(y2);
    noise_sum += select(valid, floored_noise(lambda, minimum_noise_power), splat(0));
    out[0] = lane_sum(power_sum);
    out[1] = lane_sum(noise_sum);
}

// sqrt(max(P - alpha lambda, beta lambda)/P) for P > 0, else 0.
INLINE f64x4 gain_of(f64x4 y2, f64x4 lambda, double alpha, double beta) {
    f64x4 subtracted = vmax(y2 - alpha * lambda, beta * lambda);
    i64x4 positive = y2 > 0;
    return select(positive, vsqrt(subtracted / select(positive, y2, splat(1))), splat(0));
}

INLINE void gains(const double *power, const double *noise, double *gain, long bins, double alpha, double beta,
                  double minimum_noise_power) {
    long k = 0;
    for (; k + 4 <= bins; k += 4)
        store(gain + k, gain_of(load(power + k), floored_noise(noise + k, minimum_noise_power), alpha, beta));
    double y2[4] = {0, 0, 0, 0}, lambda[4] = {1, 1, 1, 1}, g[4];
    memcpy(y2, power + k, (bins - k) * sizeof(double));
    memcpy(lambda, noise + k, (bins - k) * sizeof(double));
    store(g, gain_of(load(y2), floored_noise(lambda, minimum_noise_power), alpha, beta));
    memcpy(gain + k, g, (bins - k) * sizeof(double));
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma")))
static void sums_avx2(const double *power, const double *noise, long bins, double minimum_noise_power, double *out) {
    sums(power, noise, bins, minimum_noise_power, out);
}

__attribute__((target("avx2,fma")))
static void gains_avx2(const double *power, const double *noise, double *gain, long bins, double alpha, double beta,
                       double minimum_noise_power) {
    gains(power, noise, gain, bins, alpha, beta, minimum_noise_power);
}
#endif

void sekit_spectral_subtraction_sums(const double *power, const double *noise, long bins, double minimum_noise_power,
                                     double *out, int avx2) {
#if defined(__x86_64__)
    if (avx2) {
        sums_avx2(power, noise, bins, minimum_noise_power, out);
        return;
    }
#endif
    (void)avx2;
    sums(power, noise, bins, minimum_noise_power, out);
}

void sekit_spectral_subtraction_gains(const double *power, const double *noise, double *gain, long bins, double alpha,
                                      double beta, double minimum_noise_power, int avx2) {
#if defined(__x86_64__)
    if (avx2) {
        gains_avx2(power, noise, gain, bins, alpha, beta, minimum_noise_power);
        return;
    }
#endif
    (void)avx2;
    gains(power, noise, gain, bins, alpha, beta, minimum_noise_power);
}
