#!/usr/bin/env bash
# Scores the same 200 real-speech pairs (fixture speech mixed with fixture noise at -5...20 dB,
# 4 s at 16 kHz; the noisy mix stands for the enhanced output) with
#   sekit score --metrics stoi,estoi,segsnr --jobs 1
# and with pystoi 0.4.1 + numpy (scripts/bench/score_reference.py), both on one core, then the
# same with STOI alone; prints the seconds of each, the ratios, and checks that both give the
# same numbers (max abs difference <= 1e-9, else exit 1).
#
# Times whole processes (start-up included) with hyperfine when it is installed (--warmup 1,
# $RUNS runs, default 3; mean wall clock), else (or with TIMER=time) with bash's `time`
# (best of $RUNS).
# Installs nothing system-wide: Python comes from $SEKIT_PYTHON or the project venv
# (scripts/python-env.sh, under .build/). Work files go to .build/bench/score/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
fixtures="${SEKIT_FIXTURES:-$root/../shared/fixtures}"
runs="${RUNS:-3}"
tolerance=1e-9
# One core each: no BLAS/OpenMP threads on the Python side, --jobs 1 on SEKit's.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMEXPR_NUM_THREADS=1

swift build -c release --product sekit >&2
sekit="$(swift build -c release --show-bin-path)/sekit"
work="$root/.build/bench/score"
pairs="$work/pairs"
mkdir -p "$work"
if [[ ! -f "$pairs/manifest.jsonl" ]]; then
    echo "score: mixing 200 pairs from $fixtures" >&2
    (cd "$work" && "$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --count 200 \
        --snr-db=-5,0,5,10,15,20 --seed 1 --out "$pairs" >/dev/null)
fi

# measure NAME COMMAND...: prints "wall_seconds cpu_seconds" (hyperfine mean, or best of $runs).
measure() {
    local name="$1"; shift
    if [[ "${TIMER:-auto}" != time ]] && command -v hyperfine >/dev/null; then
        hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/$name.hyperfine.json" \
            --command-name "$name" "$(printf '%q ' "$@")" >&2
        "$python" -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["mean"], r["user"]+r["system"])' \
            "$work/$name.hyperfine.json"
    else
        local best="" line
        for _ in $(seq "$runs"); do
            line=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
            best=$(printf '%s\n%s\n' "$best" "$line" | awk 'NF==3 {print $1, $2+$3}' | sort -g | head -1)
        done
        echo "$best"
    fi
}

score_python=("$python" scripts/bench/score_reference.py score "$pairs/clean" "$pairs/noisy")
score_sekit=("$sekit" score --reference "$pairs/clean" --enhanced "$pairs/noisy" --jobs 1 --format json)
declare -A wall cpu
for metrics in stoi,estoi,segsnr stoi; do
    read -r wall[sekit-$metrics] cpu[sekit-$metrics] < <(measure "sekit-$metrics" "${score_sekit[@]}" --metrics "$metrics")
    read -r wall[python-$metrics] cpu[python-$metrics] < <(measure "python-$metrics" "${score_python[@]}" "$work/python-$metrics.json" "$metrics")
done
"${score_sekit[@]}" --metrics stoi,estoi,segsnr >"$work/sekit.json" 2>/dev/null

echo "200 pairs, 4 s at 16 kHz, one core each (sekit --jobs 1; OMP/BLAS threads 1); whole processes, seconds:"
for metrics in stoi,estoi,segsnr stoi; do
    "$python" - "$metrics" "${wall[sekit-$metrics]}" "${cpu[sekit-$metrics]}" "${wall[python-$metrics]}" "${cpu[python-$metrics]}" \
        "$work/python-$metrics.json" <<'PY'
import json, sys
metrics, sw, sc, pw, pc = sys.argv[1], *map(float, sys.argv[2:6])
inside = json.load(open(sys.argv[6]))["seconds"]
print(f"  {metrics:<18} sekit {sw:7.3f} s (cpu {sc:6.3f})   pystoi+numpy {pw:7.3f} s (cpu {pc:6.3f}; "
      f"{inside:.3f} in-process)   ratio {pw / sw:5.1f}x (cpu {pc / sc:5.1f}x)")
PY
done
"$python" scripts/bench/score_reference.py compare "$work/sekit.json" "$work/python-stoi,estoi,segsnr.json" "$tolerance"
