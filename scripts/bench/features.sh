#!/usr/bin/env bash
# Times, in one run, exporting the same mixed corpus (CLIPS four-second clips at 16 kHz mixed from
# datasets/fixtures, default 1000) to HDF5 magnitude features of the noisy input and the clean
# target (512/512/256, Hann, centred): `sekit features --jobs 1` against librosa.stft + h5py
# (scripts/bench/features_reference.py), whole processes from start to file closed, on one core
# each, with /usr/bin/time. Also times raw FFTW STFT magnitudes of one hour of 16 kHz audio
# (512-point frames, hop 256: about 225k FFTs) in-process with sekit-bench, and prints the ratios.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source scripts/setup.sh
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
fixtures="$("$root/scripts/fixtures.sh")"
clips="${CLIPS:-1000}"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1
swift build -c release --product sekit >&2
swift build -c release --product sekit-bench >&2
bin="$(swift build -c release --show-bin-path)"
work="$root/.build/bench/features"
corpus="$work/corpus-$clips"
mkdir -p "$work"
if [[ ! -f "$corpus/manifest.jsonl" ]]; then
    echo "features: mixing $clips clips from $fixtures" >&2
    "$bin/sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --count "$clips" --seconds 4 \
        --snr-db=-5:20 --seed 1 --out "$corpus" --no-catalog >/dev/null
fi
source scripts/bench/lib.sh  # timed
# Warm the page cache so both sides read the same cached files.
cat "$corpus"/noisy/*.wav "$corpus"/clean/*.wav >/dev/null
rm -f "$work/sekit.h5" "$work/python.h5"
read -r s_wall s_cpu s_rss _ < <(timed sekit "$bin/sekit" features --corpus "$corpus" --out "$work/sekit.h5" --targets clean --jobs 1 --no-catalog)
read -r p_wall p_cpu p_rss _ < <(timed python "$python" scripts/bench/features_reference.py "$corpus" "$work/python.h5")
# Raw STFT throughput: one hour of 16 kHz audio (made by scripts/bench/io_dsp.sh's recipe if missing).
hour="$root/.build/bench/hour_48k.wav"
[[ -f "$hour" ]] || { echo "features: run scripts/bench/io_dsp.sh once to make $hour" >&2; exit 1; }
raw=$("$bin/sekit-bench" io-dsp "$hour" | "$python" -c 'import json,sys; print(json.load(sys.stdin)["stft_seconds"])')
"$python" - "$clips" "$s_wall" "$s_cpu" "$s_rss" "$p_wall" "$p_cpu" "$p_rss" "$raw" "$work/sekit.h5" "$work/python.h5" <<'PY'
import sys, h5py, numpy as np
clips = int(sys.argv[1]); sw, sc, sr, pw, pc, pr, raw = map(float, sys.argv[2:9])
a, b = h5py.File(sys.argv[9], "r"), h5py.File(sys.argv[10], "r")
diff = max(float(np.max(np.abs(a[s][:] - b[s][:])) / np.max(np.abs(b[s][:]))) for s in ("noisy", "clean"))
audio = clips * 4.0
stft_seconds = 2 * audio                       # two signals (noisy, clean) go through the STFT
print(f"corpus: {clips} clips x 4 s = {audio/3600:.2f} h; streams noisy + clean magnitude, float32, no compression")
print(f"sekit features --jobs 1: {sw:7.2f} s wall {sc:7.2f} s CPU  {sr/1024:6.0f} MB max RSS")
print(f"librosa + h5py:          {pw:7.2f} s wall {pc:7.2f} s CPU  {pr/1024:6.0f} MB max RSS")
print(f"ratio (CPU, python/sekit): {pc/sc:5.2f}x   (wall: {pw/sw:5.2f}x)   max relative difference {diff:.1e}")
print(f"raw FFTW STFT magnitudes: {3600/raw:,.0f} s of audio per s (1 h in {raw:.3f} s, in-process)")
print(f"sekit features: {stft_seconds/sc:,.0f} s of audio through the STFT per CPU s = {(stft_seconds/sc)/(3600/raw):.2f} of raw STFT throughput (target >= 0.5)")
PY
