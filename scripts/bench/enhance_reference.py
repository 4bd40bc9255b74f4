"""Python side of scripts/bench/enhance.sh.

enhance_reference.py NOISY_DIR OUT_DIR
    Enhances every NOISY_DIR/*.wav, in name order, one after another on one thread, with the
    `logmmse` PyPI package 1.5 at its defaults (20 ms frames, 50% overlap, 6 noise-only frames,
    VAD threshold 0.15) and writes OUT_DIR/NAME.wav as 32-bit float. Prints
    {"clips": N, "audio_seconds": ..., "seconds": reading, enhancing and writing inside the
    process, imports excluded} as JSON.

The package returns floor(n/hop) - 2 hops of output (Loizou's logmmse.m frame count), so its files
are up to 30 ms shorter than the input; sekit enhance keeps the input's length.
"""
import json
import os
import sys
import time

import numpy as np
import soundfile as sf
from logmmse import logmmse


def main(noisy_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    t0 = time.perf_counter()
    clips, audio_seconds = 0, 0.0
    for name in sorted(os.listdir(noisy_dir)):
        if not name.endswith(".wav"):
            continue
        x, fs = sf.read(os.path.join(noisy_dir, name), dtype="float32")
        # float32 in, float32 out: the package's float64 path returns a tuple (its from_float bug).
        y = logmmse(x, fs)
        sf.write(os.path.join(out_dir, name), np.asarray(y, dtype=np.float32), fs, subtype="FLOAT")
        clips += 1
        audio_seconds += len(x) / fs
    print(json.dumps({"clips": clips, "audio_seconds": audio_seconds, "seconds": time.perf_counter() - t0}))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
