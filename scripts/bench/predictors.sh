#!/usr/bin/env bash
# The quality predictors (wada_snr, lsd, plcmos, dnsmos_personalized, visqol_speech, visqol_audio,
# distillmos), each on the first $CLIPS (default 10) pairs of the benchmarks' corpus (fixture speech +
# noise, 4 s at 16 kHz; 48 kHz pairs mixed the same way for visqol_audio; the noisy mix stands for the output):
#  1. `sekit score --metrics M --jobs 1 --no-catalog` against the package called directly in a Python
#     loop (scripts/bench/predictors_reference.py; numpy for WADA-SNR and LSD, which have no package),
#     both under `taskset -c 0` with OMP/BLAS/numba threads 1, whole processes (imports, model loading
#     and the clips). taskset alone does not hold ONNX Runtime to one core (it sizes its pools by the
#     machine's cores): the loop makes every ONNX Runtime session single-threaded and sets torch to one
#     thread (predictors_reference.py's notes), as sekit's workers are, so both columns are one core;
#  2. the same sekit command with --jobs 2 (no taskset);
#  3. the values: fails (exit 1) unless every one is within 1e-4 of the loop's.
# Best of $RUNS runs (default 1) in wall seconds; the cpu columns are the mean user + system seconds per
# clip of the same runs (the worker's included), steadier than wall time on a shared machine. Work files
# go to .build/bench/predictors/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
export SEKIT_PYTHON="$python"
fixtures="$("$root/scripts/fixtures.sh")"
runs="${RUNS:-1}"
clips="${CLIPS:-10}"
metrics="${METRICS:-wada_snr lsd plcmos dnsmos_personalized visqol_speech visqol_audio distillmos}"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMEXPR_NUM_THREADS=1 NUMBA_NUM_THREADS=1

source scripts/bench/lib.sh  # release_sekit, fixture_mix, measure
sekit="$(release_sekit)"
work="$root/.build/bench/predictors"
mkdir -p "$work"
# The first $clips pairs of each rate, in their own folders (sekit scores every file of a folder).
subset() {
    local from="$1" to="$2" side
    for side in clean noisy; do
        rm -rf "${to:?}/$side" && mkdir -p "$to/$side"
        find "$from/$side" -name '*.wav' | sort | sed -n "1,${clips}p" | xargs cp -t "$to/$side"
    done
}
fixture_mix "$work/pairs"
subset "$work/pairs" "$work/pairs16"
if [[ ! -f "$work/mix48-$clips/manifest.jsonl" ]]; then
    "$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --count "$clips" --seconds 4 --sample-rate 48000 \
        --snr-db=-5,0,5,10,15,20 --seed 1 --out "$work/mix48-$clips" --no-catalog >/dev/null
fi
subset "$work/mix48-$clips" "$work/pairs48"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
one=(taskset -c 0)
status=0
echo "first $clips pairs, 4 s; whole processes, best of $runs; seconds per clip (wall), one core each:"
printf '  %-22s %10s %10s %8s %14s %8s %10s %10s %8s\n' metric sekit-j1 python "speed-up" sekit-j2 "j1->j2" \
    cpu-sekit cpu-python "cpu x"
for metric in $metrics; do
    pairs="$work/pairs16"
    [[ "$metric" == visqol_audio ]] && pairs="$work/pairs48"
    score_sekit=("$sekit" score --reference "$pairs/clean" --enhanced "$pairs/noisy" --metrics "$metric" --format json --no-catalog)
    loop=("$python" scripts/bench/predictors_reference.py "$metric" "$pairs/clean" "$pairs/noisy" "$clips" "$work/$metric-python.json")
    # A first untimed pass of each: numba and ONNX caches warm, the values kept for the comparison.
    "${score_sekit[@]}" --jobs 1 >"$work/$metric-sekit.json" 2>"$work/$metric-sekit.err" || { cat "$work/$metric-sekit.err" >&2; status=1; }
    "${loop[@]}" 2>"$work/$metric-python.err" || { tail -5 "$work/$metric-python.err" >&2; status=1; }
    read -r s1 _ c1 <<<"$(measure "$metric-sekit1" "${one[@]}" "${score_sekit[@]}" --jobs 1)"
    read -r p1 _ cp <<<"$(measure "$metric-python1" "${one[@]}" "${loop[@]}")"
    read -r s2 _ _ <<<"$(measure "$metric-sekit2" "${score_sekit[@]}" --jobs 2)"
    per_clip() { awk -v t="$1" -v n="$clips" 'BEGIN { print t / n }'; }
    printf '  %-22s %10.3f %10.3f %8s %14.3f %8s %10.3f %10.3f %8s\n' "$metric" "$(per_clip "$s1")" "$(per_clip "$p1")" \
        "$(ratio "$p1" "$s1")" "$(per_clip "$s2")" "$(ratio "$s1" "$s2")" "$(per_clip "$c1")" "$(per_clip "$cp")" "$(ratio "$cp" "$c1")"
    "$python" scripts/bench/predictors_reference.py compare "$work/$metric-sekit.json" "$work/$metric-python.json" "$metric" 1e-4 \
        >>"$work/agreement.txt" || status=1
done
echo "agreement (sekit vs the package called directly):"
cat "$work/agreement.txt"
rm -f "$work/agreement.txt"
exit "$status"
