// libsoxr: high-quality sample-rate conversion.
#include <soxr.h>
