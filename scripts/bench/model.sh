#!/usr/bin/env bash
# `sekit enhance --model` against ONNX Runtime called directly from Python, on the same 200
# real-speech clips (fixture speech mixed with fixture noise at -5...20 dB by `sekit mix`, 4 s at
# 16 kHz, as in enhance.sh) and the same model:
#   python scripts/bench/model_reference.py MODEL IN OUT   (numpy STFT and features, the session,
#                                                           numpy overlap-add, soundfile I/O)
#   sekit enhance --model MODEL --input IN --out OUT --jobs 1
# features and resynthesis included on both sides, each pinned to one core (taskset: SEKit's
# Python worker shares that core), each timed as a whole process (start-up, reading and writing
# included) with /usr/bin/time, best of $RUNS runs (default 3). Prints the seconds of each and the
# ratio (target: sekit at least 1.25x as fast); then the streaming model through `--streaming`,
# whose per-frame p99 should be below the hop. Measured on the shared 2-core machine with the
# stand-in model (RUNS=5 CORE=1): Python 3.61 s (cpu 2.38), sekit 1.71 s (cpu 1.19), 2.1x (cpu 2.0x);
# streaming p50 0.040 ms, p99 0.109 ms against the 16 ms hop (docs/benchmarks.md).
#
# MODEL: the model to run (the CRNN recipe's export, experiments/crnn/train.py; NAME.stream.onnx
# beside it for the streaming row). Without it, a stand-in of the contract is made:
# scripts/dev/tiny_onnx_model.py with a GRU of 128 units (Linear 257->128, GRU 128, Linear 128->257).
#
# Installs nothing system-wide: Python comes from $SEKIT_PYTHON or the project venv
# (scripts/python-env.sh, under .build/). Work files go to .build/bench/model/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
export SEKIT_PYTHON="$python"
fixtures="$("$root/scripts/fixtures.sh")"
runs="${RUNS:-3}"
core="${CORE:-0}"
# One core each: no BLAS/OpenMP threads on the Python side, --jobs 1 on SEKit's, both pinned.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMEXPR_NUM_THREADS=1

source scripts/bench/lib.sh  # release_sekit, fixture_mix, measure_run
sekit="$(release_sekit)"
work="$root/.build/bench/model"
clips="$work/clips"
fixture_mix "$clips"
model="${MODEL:-}"
if [[ -z "$model" ]]; then
    model="$work/standin.onnx"
    [[ -f "$model" ]] || "$python" scripts/dev/tiny_onnx_model.py "$model" 257 0 '{}' '' 128 2>/dev/null
fi
name="$(basename "$model" .onnx)"
audio_seconds=$("$python" -c 'import sys, os, soundfile as sf; d = sys.argv[1]; print(sum(sf.info(os.path.join(d, n)).duration for n in os.listdir(d) if n.endswith(".wav")))' "$clips/noisy")

# Outputs of an earlier run (perhaps of another model, which enhance would refuse to mix in) go first.
rm -rf "$work/python-out" "$work/sekit-out" "$work/sekit-stream"
read -r p_wall p_cpu <<<"$(measure_run python taskset -c "$core" "$python" scripts/bench/model_reference.py "$model" "$clips/noisy" "$work/python-out")"
echo "200 clips ($audio_seconds s of audio, 16 kHz), model $model; one core each; whole processes, best of $runs runs:"
printf '  ONNX Runtime from Python (model_reference.py)  %8.3f s (cpu %.3f)   %6.0fx real time\n' "$p_wall" "$p_cpu" \
    "$(awk -v a="$audio_seconds" -v t="$p_wall" 'BEGIN { print a / t }')"
read -r s_wall s_cpu <<<"$(measure_run sekit taskset -c "$core" "$sekit" enhance --model "$model" --input "$clips/noisy" \
    --out "$work/sekit-out" --jobs 1 --no-catalog)"
printf '  sekit enhance --model --jobs 1                 %8.3f s (cpu %.3f)   %6.0fx real time\n' "$s_wall" "$s_cpu" \
    "$(awk -v a="$audio_seconds" -v t="$s_wall" 'BEGIN { print a / t }')"
awk -v p="$p_wall" -v s="$s_wall" -v pc="$p_cpu" -v sc="$s_cpu" \
    'BEGIN { printf "  ratio %.2fx (target at least 1.25x; cpu seconds %.2fx)\n", p / s, pc / sc }'
# The outputs agree (every clip, within 1e-5 of its peak).
"$python" - "$work/python-out" "$work/sekit-out/$name" <<'PY'
import os, sys
import numpy as np, soundfile
worst = max(np.abs(soundfile.read(os.path.join(sys.argv[1], n))[0] - soundfile.read(os.path.join(sys.argv[2], n))[0]).max()
            / max(np.abs(soundfile.read(os.path.join(sys.argv[1], n))[0]).max(), 1e-12) for n in os.listdir(sys.argv[1]))
print(f"  largest difference between the two outputs: {worst:.2e} of a clip's peak")
PY

stream="${model%.onnx}.stream.onnx"
if [[ -f "$stream" ]]; then
    rm -f "$work/stream.sqlite"
    taskset -c "$core" "$sekit" enhance --model "$model" --streaming --input "$clips/noisy" --out "$work/sekit-stream" --jobs 1 \
        --overwrite --catalog "$work/stream.sqlite" >/dev/null 2>"$work/stream.err"
    echo "  --streaming (one frame at a time, one core):"
    sqlite3 "$work/stream.sqlite" "SELECT '    ' || key || ' = ' || value_text FROM params WHERE key IN
        ('frame_ms_p50', 'frame_ms_p99', 'frame_ms_max', 'hop_ms', 'streaming_max_abs_diff', 'rtf', 'latency_ms') ORDER BY key"
fi
