// FFTW 3, single (fftwf_*) and double (fftw_*) precision.
// FFTW_NO_Complex: complex numbers are plain `float[2]` / `double[2]`, which Swift
// imports as tuples, instead of C99 `_Complex`, which it does not import.
#define FFTW_NO_Complex 1
#include <fftw3.h>

// FFTW's flags are macros built from shifts; Swift imports them, but spell out
// the combination SEKit plans with so it is stated in one place.
static inline unsigned sekit_fftw_estimate_unaligned(void) { return FFTW_ESTIMATE | FFTW_UNALIGNED; }
static inline unsigned sekit_fftw_estimate_unaligned_preserve(void) {
    return FFTW_ESTIMATE | FFTW_UNALIGNED | FFTW_PRESERVE_INPUT;
}
static inline unsigned sekit_fftw_estimate(void) { return FFTW_ESTIMATE; }
static inline unsigned sekit_fftw_estimate_preserve(void) { return FFTW_ESTIMATE | FFTW_PRESERVE_INPUT; }
