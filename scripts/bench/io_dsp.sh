#!/usr/bin/env bash
# Times, in one run, (1) reading a one-hour 48 kHz WAV and resampling it to 16 kHz and (2) STFT
# magnitudes of the hour at 16 kHz (512-point periodic Hann, hop 256, no centring), in SEKit
# (release build) and in Python (soundfile + python-soxr HQ + numpy), and prints the ratios.
# Both sides time the work inside their process (start-up excluded), best of 3 runs each.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source scripts/setup.sh
python="$(scripts/python-env.sh)"
swift build -c release --product sekit-bench >&2
bench="$(swift build -c release --show-bin-path)/sekit-bench"
work="$root/.build/bench"
mkdir -p "$work"
input="$work/hour_48k.wav"
if [[ ! -f "$input" ]]; then
    echo "io_dsp: making one hour of 48 kHz speech-like audio from the fixtures" >&2
    "$python" - "$input" "$("$root/scripts/fixtures.sh")" <<'PY'
import sys, glob, numpy as np, soundfile as sf, soxr
files = sorted(glob.glob(sys.argv[2] + '/speech/*.wav')) or [None]
parts = []
for f in files:
    if f is None:
        parts.append(np.random.default_rng(0).standard_normal(16000 * 10) * 0.05)
    else:
        x, r = sf.read(f); parts.append(soxr.resample(x, r, 48000))
one = np.concatenate(parts)
reps = int(np.ceil(3600 * 48000 / len(one)))
sf.write(sys.argv[1], np.tile(one, reps)[: 3600 * 48000], 48000, subtype='PCM_16')
PY
fi
best() { sort -g | head -1; }
declare -a s_rr s_stft p_rr p_stft
for i in 1 2 3; do
    s=$("$bench" io-dsp "$input"); p=$("$python" scripts/bench/io_dsp_reference.py "$input")
    s_rr+=($(echo "$s" | "$python" -c 'import json,sys;print(json.load(sys.stdin)["read_resample_seconds"])'))
    s_stft+=($(echo "$s" | "$python" -c 'import json,sys;print(json.load(sys.stdin)["stft_seconds"])'))
    p_rr+=($(echo "$p" | "$python" -c 'import json,sys;print(json.load(sys.stdin)["read_resample_seconds"])'))
    p_stft+=($(echo "$p" | "$python" -c 'import json,sys;print(json.load(sys.stdin)["stft_seconds"])'))
done
sr=$(printf '%s\n' "${s_rr[@]}" | best); ss=$(printf '%s\n' "${s_stft[@]}" | best)
pr=$(printf '%s\n' "${p_rr[@]}" | best); ps=$(printf '%s\n' "${p_stft[@]}" | best)
"$python" - "$sr" "$ss" "$pr" "$ps" <<'PY'
import sys
sr, ss, pr, ps = map(float, sys.argv[1:])
print(f"read+resample 1 h 48k->16k:  SEKit {sr:7.3f} s   Python {pr:7.3f} s   Python/SEKit = {pr/sr:5.2f}x")
print(f"STFT 1 h @16k (512/256):     SEKit {ss:7.3f} s   numpy  {ps:7.3f} s   numpy/SEKit  = {ps/ss:5.2f}x")
print(f"SEKit STFT speed: {3600/ss:,.0f}x real time")
PY
