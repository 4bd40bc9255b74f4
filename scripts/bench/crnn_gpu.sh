#!/usr/bin/env bash
# The reference CRNN recipe on a GPU, end to end, and the loader's share of its training rate: mixes
# HOURS (default 3) of four-second clips from the fixtures (train and valid splits of the speech files;
# noise shared), exports noisy magnitudes and the ideal ratio mask (`sekit features`, SEKit's default
# framing), trains `experiments/crnn/train.py --device cuda` for EPOCHS (default 10) with batches of 64
# and 4 loader workers (mixed precision: bfloat16 autocast), runs scripts/bench/loader_gpu.py (the
# loaders' share of the compute-bound training rate), runs the best epoch's export with `sekit enhance
# --model --streaming` on the valid clips (real-time figures on the machine's CPU), and measures the
# CPU's compute-bound training rate of loader_gpu.py's CRNN for the GPU/CPU ratio. Every step is timed; the log
# says which card ran it.
#
# Needs no build tools and no network: SEKIT (a sekit binary), PYTHON (an interpreter with torch, CUDA,
# h5py, onnx, onnxruntime, pystoi, pesq, soundfile), SEKIT_FIXTURES (speech/ and noise/ folders; default
# datasets/fixtures). Writes under WORK (default .build/bench/crnn-gpu) and copies the logs, the
# training metrics and best.json to RESULTS (default WORK/results). docs/crnn-recipe.md has the figures.
#   SEKIT=path/to/sekit PYTHON=python3 scripts/bench/crnn_gpu.sh [HOURS=3] [EPOCHS=10] [LOADER_STEPS=150]
# GPU_DEVICE=cpu is a dry run of the script on a machine without a GPU (small HOURS, LOADER_STEPS=12).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
sekit="${SEKIT:?set SEKIT to a sekit binary}"
python="${PYTHON:-$(command -v python3)}"
fixtures="$("$root/scripts/fixtures.sh")"
hours="${HOURS:-3}"
epochs="${EPOCHS:-10}"
gpu="${GPU_DEVICE:-cuda}"  # cpu: a dry run of the script on a machine without a GPU
work="${WORK:-$root/.build/bench/crnn-gpu}"
results="${RESULTS:-$work/results}"
jobs="$(nproc)"
export PYTHONPATH="$root/experiments/python${PYTHONPATH:+:$PYTHONPATH}"
export SEKIT_BINARY="$sekit" SEKIT_PYTHON="$python" SEKIT_CATALOG="$work/catalog.sqlite"
mkdir -p "$work" "$results"

step() { echo "== $(date -u +%H:%M:%S) $*" >&2; }
timed() { local start=$SECONDS; "$@"; echo "   ($((SECONDS - start)) s)" >&2; }

step "device"
"$python" -c 'import os, sys, torch
print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}")
if sys.argv[1] == "cuda" and not torch.cuda.is_available(): sys.exit("crnn_gpu: torch sees no CUDA device")
name = torch.cuda.get_device_name() if sys.argv[1] == "cuda" else "none (a dry run)"
print(f"GPU: {name}; CPU cores: {os.cpu_count()}")' "$gpu"
"$python" -c 'import pystoi, soundfile, onnxruntime; print("onnxruntime", onnxruntime.__version__)'
valid_metrics='["stoi", "pesq"]'
if ! "$python" -c 'import pesq' 2>/dev/null; then
    echo "crnn_gpu: the pesq package does not import here: validation scores STOI alone" >&2
    valid_metrics='["stoi"]'
fi

clips=$("$python" -c "print(round($hours * 3600 / 4))")
corpus="$work/corpus"
if [[ ! -f "$corpus/manifest.jsonl" ]]; then
    step "sekit mix: $clips four-second clips ($hours h), speech files split train=0.9,valid=0.1, noise shared"
    timed "$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --count "$clips" --seconds 4 \
        --snr-db=-5:20 --split train=0.9,valid=0.1 --split-sources speech --seed 1 --jobs "$jobs" --out "$corpus" >/dev/null
fi
features="$work/features.h5"
if [[ ! -f "$features" ]]; then
    step "sekit features: noisy magnitudes and the ideal ratio mask"
    timed "$sekit" features --corpus "$corpus" --out "$features" --targets irm --jobs "$jobs" >/dev/null
fi
ls -l "$features" >&2

config="$work/config-gpu.json"
echo "{\"name\": \"crnn-gpu\", \"batch_size\": 64, \"num_workers\": 4, \"valid_metrics\": $valid_metrics}" > "$config"
step "train.py --device $gpu: $epochs epochs (batches of 64, 4 workers)"
rm -rf "$work/crnn-gpu"
timed "$python" experiments/crnn/train.py --features "$features" --out "$work/crnn-gpu" --epochs "$epochs" \
    --device "$gpu" --config "$config" 2>&1 | tee "$results/train-gpu.log" || echo "crnn_gpu: train.py failed" >&2
cp "$work/crnn-gpu/best.json" "$results/best.json" || true

step "loader_gpu.py: the loaders' share of the compute-bound training rate"
timed "$python" scripts/bench/loader_gpu.py "$features" --workers 0,4,8 --steps "${LOADER_STEPS:-150}" --device "$gpu" 2>&1 \
    | tee "$results/loader-gpu.log" || echo "crnn_gpu: loader_gpu.py failed" >&2

# What follows is measured on the CPU; a failure is reported and the rest still runs.
step "sekit enhance --model best.onnx --streaming on the valid clips (ONNX Runtime on the CPU, $jobs jobs)"
rm -rf "$work/enhanced"
timed "$sekit" enhance --model "$work/crnn-gpu/best.onnx" --streaming --corpus "$corpus" --split valid \
    --out "$work/enhanced" --jobs "$jobs" >/dev/null || echo "crnn_gpu: sekit enhance failed" >&2
"$sekit" runs list --kind enhance --format json \
    --columns params.rtf,params.frame_ms_p50,params.frame_ms_p99,params.frame_ms_max,params.hop_ms,params.streaming_max_abs_diff \
    | tee "$results/enhance-runs.json" || echo "crnn_gpu: sekit runs list failed" >&2

step "the CPU's compute-bound training rate of loader_gpu.py's CRNN (--device cpu, $jobs threads)"
timed timeout "${CPU_TIMEOUT:-150}" "$python" scripts/bench/loader_gpu.py "$features" --workers "" --steps 20 --device cpu 2>&1 \
    | tee "$results/compute-cpu.log" || echo "crnn_gpu: the CPU measurement failed or ran past ${CPU_TIMEOUT:-150} s" >&2
cp "$SEKIT_CATALOG" "$results/catalog.sqlite"
step "done"
