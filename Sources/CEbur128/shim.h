// libebur128: EBU R128 loudness (integrated loudness in LUFS, loudness range, true peak).
#include <ebur128.h>
