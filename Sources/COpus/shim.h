// libopus: the Opus codec, called directly for the codec stage's Opus round trip (complexity).
// The encoder and decoder controls are variadic macros over variadic functions, which Swift cannot
// call: each control used is wrapped in a typed inline function.
#include <opus.h>
#include <opus_multistream.h>

static inline int sekit_opus_ms_set_bitrate(OpusMSEncoder *encoder, opus_int32 bps) {
    return opus_multistream_encoder_ctl(encoder, OPUS_SET_BITRATE(bps));
}
static inline int sekit_opus_ms_set_complexity(OpusMSEncoder *encoder, opus_int32 complexity) {
    return opus_multistream_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity));
}
static inline int sekit_opus_ms_set_lsb_depth(OpusMSEncoder *encoder, opus_int32 bits) {
    return opus_multistream_encoder_ctl(encoder, OPUS_SET_LSB_DEPTH(bits));
}
static inline int sekit_opus_ms_get_lookahead(OpusMSEncoder *encoder, opus_int32 *samples) {
    return opus_multistream_encoder_ctl(encoder, OPUS_GET_LOOKAHEAD(samples));
}
