#!/usr/bin/env bash
# Scores the same 200 real-speech pairs (fixture speech mixed with fixture noise at -5...20 dB,
# 4 s at 16 kHz; the noisy mix stands for the enhanced output) with
#   sekit score --metrics stoi,estoi,segsnr --jobs 1
# and with pystoi 0.4.1 + numpy (scripts/bench/score_reference.py), both on one core, then the
# same with STOI alone; prints the seconds of each, the ratios, and checks that both give the
# same numbers (max abs difference <= 1e-9, else exit 1).
#
# Times whole processes (start-up included), best of $RUNS runs (default 3; the machine may be
# shared, so the fastest run is the one least disturbed), with hyperfine when it is installed
# (after one warm-up run; its mean is printed too), else (or with TIMER=time) with bash's `time`.
# Installs nothing system-wide: Python comes from $SEKIT_PYTHON or the project venv
# (scripts/python-env.sh, under .build/). Work files (pairs, the mix's catalogue, timings) go to
# .build/bench/score/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
fixtures="$("$root/scripts/fixtures.sh")"
runs="${RUNS:-3}"
tolerance=1e-9
# One core each: no BLAS/OpenMP threads on the Python side, --jobs 1 on SEKit's.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMEXPR_NUM_THREADS=1

source scripts/bench/lib.sh  # release_sekit, fixture_mix, measure
sekit="$(release_sekit)"
work="$root/.build/bench/score"
pairs="$work/pairs"
fixture_mix "$pairs"

score_python=("$python" scripts/bench/score_reference.py score "$pairs/clean" "$pairs/noisy")
# --no-catalog: like for like with the Python side, which records nothing (recording the 200
# clips' scores in the catalogue adds about 0.07 s).
score_sekit=("$sekit" score --reference "$pairs/clean" --enhanced "$pairs/noisy" --jobs 1 --format json --no-catalog)
declare -A times
for metrics in stoi,estoi,segsnr stoi; do
    times[sekit-$metrics]=$(measure "sekit-$metrics" "${score_sekit[@]}" --metrics "$metrics")
    times[python-$metrics]=$(measure "python-$metrics" "${score_python[@]}" "$work/python-$metrics.json" "$metrics")
done
"${score_sekit[@]}" --metrics stoi,estoi,segsnr >"$work/sekit.json" 2>/dev/null

echo "200 pairs, 4 s at 16 kHz, one core each (sekit --jobs 1; OMP/BLAS threads 1);"
echo "whole processes, best of $runs runs in seconds (mean, and mean CPU time, in brackets):"
for metrics in stoi,estoi,segsnr stoi; do
    "$python" - "$metrics" ${times[sekit-$metrics]} ${times[python-$metrics]} "$work/python-$metrics.json" <<'PY'
import json, sys
metrics = sys.argv[1]
s_best, s_mean, s_cpu, p_best, p_mean, p_cpu = map(float, sys.argv[2:8])
inside = json.load(open(sys.argv[8]))["seconds"]
print(f"  --metrics {metrics:<18} sekit {s_best:6.3f} ({s_mean:.3f}, cpu {s_cpu:.3f})   "
      f"pystoi+numpy {p_best:7.3f} ({p_mean:.3f}, cpu {p_cpu:.3f}; {inside:.3f} inside the process)   "
      f"ratio {p_best / s_best:4.1f}x")
PY
done
"$python" scripts/bench/score_reference.py compare "$work/sekit.json" "$work/python-stoi,estoi,segsnr.json" "$tolerance"
