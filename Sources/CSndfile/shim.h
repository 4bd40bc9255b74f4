// libsndfile: reading and writing audio files (WAV, FLAC, OGG, AIFF, ...).
#include <sndfile.h>
