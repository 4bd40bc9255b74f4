// zlib: deterministic gzip (mtime 0) of the lhotse manifests `sekit export lhotse` writes.
#include <zlib.h>
