#!/usr/bin/env bash
# Enhances the same 200 real-speech clips (fixture speech mixed with fixture noise at -5...20 dB by
# `sekit mix`, 4 s at 16 kHz, as in score.sh) with
#   the logmmse PyPI package 1.5 in a Python loop (scripts/bench/enhance_reference.py), and
#   sekit enhance --method logmmse --input DIR --out DIR --jobs 1
# both on one core, each timed as a whole process (start-up, reading and writing included) with
# /usr/bin/time, best of $RUNS runs (default 3; the machine may be shared, so the fastest run is the
# one least disturbed). Prints the seconds of each, x real time, and the ratio (target: sekit at
# least 20x faster); then every blind method with each noise estimate (target: 1000x real time).
# Measured on the shared 2-core machine (best of 5, least disturbed of three runs): package 13.46 s,
# sekit 0.48 s, 28x (cpu 31x); every method and noise estimate 1,400-2,160x real time (was 0.82 s,
# 16.6x, and 880-1,860x before the per-bin C kernels).
#
# Installs nothing system-wide: Python comes from $SEKIT_PYTHON or the project venv
# (scripts/python-env.sh, under .build/). Work files (clips, outputs, timings) go to
# .build/bench/enhance/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
fixtures="$("$root/scripts/fixtures.sh")"
runs="${RUNS:-3}"
# One core each: no BLAS/OpenMP threads on the Python side, --jobs 1 on SEKit's.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMEXPR_NUM_THREADS=1

# $SEKIT: a sekit binary to time instead of this checkout's release build (to compare two commits).
source scripts/bench/lib.sh  # release_sekit, fixture_mix, measure_run
sekit="$(release_sekit)"
work="$root/.build/bench/enhance"
clips="$work/clips"
fixture_mix "$clips"
audio_seconds=$("$python" -c 'import sys, os, soundfile as sf; d = sys.argv[1]; print(sum(sf.info(os.path.join(d, n)).duration for n in os.listdir(d) if n.endswith(".wav")))' "$clips/noisy")

python_time=$(measure_run python "$python" scripts/bench/enhance_reference.py "$clips/noisy" "$work/python-out")
read -r p_wall p_cpu <<<"$python_time"
echo "200 clips ($audio_seconds s of audio, 16 kHz), one core each; whole processes, best of $runs runs:"
printf '  logmmse package 1.5 (Python loop)   %8.3f s (cpu %.3f)   %7.0fx real time\n' "$p_wall" "$p_cpu" \
    "$(awk -v a="$audio_seconds" -v t="$p_wall" 'BEGIN { print a / t }')"

# The same clips, one core, no catalogue (the Python side records nothing either).
sekit_enhance=("$sekit" enhance --method logmmse --input "$clips/noisy" --out "$work/sekit-out" --jobs 1 --no-catalog)
sekit_time=$(measure_run sekit "${sekit_enhance[@]}")
read -r s_wall s_cpu <<<"$sekit_time"
printf '  sekit enhance --method logmmse      %8.3f s (cpu %.3f)   %7.0fx real time\n' "$s_wall" "$s_cpu" \
    "$(awk -v a="$audio_seconds" -v t="$s_wall" 'BEGIN { print a / t }')"
# The cpu ratio too: on a shared machine it moves less than the wall ratio between runs.
awk -v p="$p_wall" -v s="$s_wall" -v pc="$p_cpu" -v sc="$s_cpu" \
    'BEGIN { printf "  ratio %.1fx (target at least 20x; cpu seconds %.1fx)\n", p / s, pc / sc }'

# Every blind method on the same clips, each noise estimate, whole processes on one core (target:
# at least 1,000x real time each).
echo "sekit enhance --jobs 1, every blind method (x real time, whole process, best of $runs runs; target at least 1000x):"
for estimate in leading mcra; do
    for method in specsub mmse-stsa logmmse wiener; do
        method_time=$(measure_run "sekit-$method-$estimate" "$sekit" enhance --method "$method" --noise-estimate "$estimate" \
            --input "$clips/noisy" --out "$work/sekit-$method-out" --jobs 1 --no-catalog)
        read -r m_wall m_cpu <<<"$method_time"
        printf '  %-9s --noise-estimate %-7s %8.3f s (cpu %.3f)   %7.0fx real time\n' "$method" "$estimate" "$m_wall" "$m_cpu" \
            "$(awk -v a="$audio_seconds" -v t="$m_wall" 'BEGIN { print a / t }')"
    done
done
