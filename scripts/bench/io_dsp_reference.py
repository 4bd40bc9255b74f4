"""Reference timings for scripts/bench/io_dsp.sh: the same work as SEKit, in Python.

1. read a 48 kHz WAV (soundfile) and resample it to 16 kHz (python-soxr, 'HQ' like SEKit's default);
2. STFT magnitudes of a 16 kHz signal with numpy: periodic Hann 512, hop 256, no centre
   padding, rfft, abs (float32 in, like SEKit).
Prints one JSON line with the seconds of each stage (wall clock inside the process).
"""
import json
import sys
import time

import numpy as np
import soundfile as sf
import soxr


def stft_magnitude(x, n_fft=512, hop=256):
    window = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)).astype(np.float32)
    frames = 1 + (len(x) - n_fft) // hop
    view = np.lib.stride_tricks.as_strided(x, shape=(frames, n_fft), strides=(x.strides[0] * hop, x.strides[0]))
    out = np.empty((frames, n_fft // 2 + 1), dtype=np.float32)
    chunk = 8192  # frames per batch, to bound memory like a streaming implementation
    for start in range(0, frames, chunk):
        out[start:start + chunk] = np.abs(np.fft.rfft(view[start:start + chunk] * window, axis=1))
    return out


def main(path48k):
    t0 = time.perf_counter()
    x, rate = sf.read(path48k, dtype="float32")
    if x.ndim > 1:
        x = x.mean(axis=1)
    y = soxr.resample(x, rate, 16000, quality="HQ").astype(np.float32)
    t1 = time.perf_counter()
    mag = stft_magnitude(y)
    t2 = time.perf_counter()
    print(json.dumps({"read_resample_seconds": t1 - t0, "stft_seconds": t2 - t1,
                      "samples_16k": int(len(y)), "frames": int(mag.shape[0]),
                      "checksum": float(mag[::997].sum())}))


if __name__ == "__main__":
    main(sys.argv[1])
