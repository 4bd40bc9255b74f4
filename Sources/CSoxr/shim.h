// libsoxr: high-quality sample-rate conversion.
#include <soxr.h>

// Quality recipes are macros; spelled as functions so Swift sees them.
static inline unsigned long sekit_soxr_hq(void) { return SOXR_HQ; }
static inline unsigned long sekit_soxr_vhq(void) { return SOXR_VHQ; }
static inline unsigned long sekit_soxr_mq(void) { return SOXR_MQ; }
