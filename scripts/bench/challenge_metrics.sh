#!/usr/bin/env bash
# The challenge measures against their reference implementations, each called per clip in a Python
# loop (scripts/bench/challenge_metrics_reference.py), whole processes, one core (taskset -c 0, BLAS
# and torch threads 1), best of $RUNS runs (default 3; bash's `time`, or hyperfine when installed):
#  1. sdr/sir/sar: `sekit score --reference clean --enhanced noisy --metrics bss_eval --jobs 1` against
#     mir_eval 0.8.2's bss_eval_sources on the 200 pairs of score.sh (fixture speech + noise at
#     -5...20 dB, 4 s at 16 kHz; the noisy mix stands for the output). Target: 10x.
#  2. srmr: `sekit score --enhanced DIR --metrics srmr --jobs 1` against torchmetrics 1.9 on the first
#     $SRMR_CLIPS noisy clips (default 20: torchaudio's lfilter runs its Python loop here, about 12 s a
#     clip, so the 200 would take 40 minutes). Target: 5x.
#  3. speaker_similarity: `sekit score --metrics speaker_similarity` with --jobs 1 (taskset -c 0) and
#     --jobs 2 (no taskset) against Resemblyzer 0.1.4 in a loop (taskset -c 0), on the first
#     $SPEAKER_CLIPS pairs (default 40). Targets: at least as fast per clip; --jobs 2 at least 1.6x.
#  4. wer_vs_clean and cer_vs_clean: `sekit score --metrics asr_vs_clean` the same way against pocketsphinx
#     5.1.1 and jiwer in a loop, on the first $ASR_CLIPS pairs (default 20). Same targets.
# Then checks the values: sdr and sar within 1e-6 dB, srmr within 1e-3, speaker_similarity within
# 1e-5, the error rates equal (exit 1 otherwise).
# Work files go to .build/bench/challenge_metrics/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
# The training environment holds mir_eval, torch and torchmetrics.
python="${SEKIT_PYTHON:-$(scripts/python-env.sh --train)}"
export SEKIT_PYTHON="$python"
fixtures="$("$root/scripts/fixtures.sh")"
runs="${RUNS:-3}"
srmr_clips="${SRMR_CLIPS:-20}"
speaker_clips="${SPEAKER_CLIPS:-40}"
asr_clips="${ASR_CLIPS:-20}"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMEXPR_NUM_THREADS=1

source scripts/bench/lib.sh  # release_sekit, fixture_mix, measure
sekit="$(release_sekit)"
work="$root/.build/bench/challenge_metrics"
pairs="$work/pairs"
fixture_mix "$pairs"
srmr_dir="$work/srmr_clips"
rm -rf "$srmr_dir" && mkdir -p "$srmr_dir"
find "$pairs/noisy" -name '*.wav' | sort | sed -n "1,${srmr_clips}p" | xargs cp -t "$srmr_dir"
speaker_dir="$work/speaker_pairs"
rm -rf "$speaker_dir" && mkdir -p "$speaker_dir/clean" "$speaker_dir/noisy"
asr_dir="$work/asr_pairs"
rm -rf "$asr_dir" && mkdir -p "$asr_dir/clean" "$asr_dir/noisy"
for side in clean noisy; do
    find "$pairs/$side" -name '*.wav' | sort | sed -n "1,${speaker_clips}p" | xargs cp -t "$speaker_dir/$side"
    find "$pairs/$side" -name '*.wav' | sort | sed -n "1,${asr_clips}p" | xargs cp -t "$asr_dir/$side"
done

report() {
    read -r best mean cpu <<<"$2"
    printf '  %-40s %8.2f s (mean %.2f, cpu %.2f)  %.2f clips/s\n' "$1" "$best" "$mean" "$cpu" "$(awk -v n="$3" -v b="$best" 'BEGIN { print n / b }')"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
one=(taskset -c 0)
reference=scripts/bench/challenge_metrics_reference.py
declare -A t
sdr_sekit=("$sekit" score --reference "$pairs/clean" --enhanced "$pairs/noisy" --metrics bss_eval --format json --no-catalog --jobs 1)
srmr_sekit=("$sekit" score --enhanced "$srmr_dir" --metrics srmr --format json --no-catalog --jobs 1)
t[sdr_sekit]=$(measure sdr_sekit "${one[@]}" "${sdr_sekit[@]}")
t[sdr_python]=$(measure sdr_python "${one[@]}" "$python" "$reference" sdr "$pairs/clean" "$pairs/noisy" "$work/sdr-python.json")
t[srmr_sekit]=$(measure srmr_sekit "${one[@]}" "${srmr_sekit[@]}")
t[srmr_python]=$(measure srmr_python "${one[@]}" "$python" "$reference" srmr "$srmr_dir" "$srmr_clips" "$work/srmr-python.json")
speaker_sekit=("$sekit" score --reference "$speaker_dir/clean" --enhanced "$speaker_dir/noisy" --metrics speaker_similarity
    --format json --no-catalog)
t[speaker_sekit1]=$(measure speaker_sekit1 "${one[@]}" "${speaker_sekit[@]}" --jobs 1)
t[speaker_sekit2]=$(measure speaker_sekit2 "${speaker_sekit[@]}" --jobs 2)
t[speaker_python]=$(measure speaker_python "${one[@]}" "$python" "$reference" speaker "$speaker_dir/clean" "$speaker_dir/noisy" \
    "$work/speaker-python.json")
"${speaker_sekit[@]}" --jobs 2 >"$work/speaker-sekit.json" 2>/dev/null
asr_sekit=("$sekit" score --reference "$asr_dir/clean" --enhanced "$asr_dir/noisy" --metrics asr_vs_clean --format json --no-catalog)
t[asr_sekit1]=$(measure asr_sekit1 "${one[@]}" "${asr_sekit[@]}" --jobs 1)
t[asr_sekit2]=$(measure asr_sekit2 "${asr_sekit[@]}" --jobs 2)
t[asr_python]=$(measure asr_python "${one[@]}" "$python" "$reference" asr "$asr_dir/clean" "$asr_dir/noisy" "$work/asr-python.json")
"${asr_sekit[@]}" --jobs 2 >"$work/asr-sekit.json" 2>/dev/null
"${sdr_sekit[@]}" >"$work/sdr-sekit.json" 2>/dev/null
"${srmr_sekit[@]}" >"$work/srmr-sekit.json" 2>/dev/null

echo "whole processes on one core, best of $runs runs (mean wall and CPU seconds in brackets)"
echo "sdr/sir/sar, 200 pairs of 4 s at 16 kHz:"
report "sekit --metrics bss_eval --jobs 1" "${t[sdr_sekit]}" 200
report "mir_eval 0.8.2 loop" "${t[sdr_python]}" 200
echo "  ratio $(ratio "${t[sdr_python]%% *}" "${t[sdr_sekit]%% *}") (target 10x)"
echo "srmr, first $srmr_clips noisy clips:"
report "sekit --metrics srmr --jobs 1" "${t[srmr_sekit]}" "$srmr_clips"
report "torchmetrics 1.9 loop" "${t[srmr_python]}" "$srmr_clips"
echo "  ratio $(ratio "${t[srmr_python]%% *}" "${t[srmr_sekit]%% *}") (target 5x)"
echo "speaker_similarity, first $speaker_clips pairs:"
report "sekit --jobs 1 (taskset -c 0)" "${t[speaker_sekit1]}" "$speaker_clips"
report "sekit --jobs 2" "${t[speaker_sekit2]}" "$speaker_clips"
report "Resemblyzer 0.1.4 loop (taskset -c 0)" "${t[speaker_python]}" "$speaker_clips"
echo "  ratio $(ratio "${t[speaker_python]%% *}" "${t[speaker_sekit1]%% *}") (target 1x), --jobs 1 -> 2: $(ratio "${t[speaker_sekit1]%% *}" "${t[speaker_sekit2]%% *}") (target 1.6x)"
echo "wer_vs_clean, cer_vs_clean, first $asr_clips pairs:"
report "sekit --jobs 1 (taskset -c 0)" "${t[asr_sekit1]}" "$asr_clips"
report "sekit --jobs 2" "${t[asr_sekit2]}" "$asr_clips"
report "pocketsphinx + jiwer loop (taskset -c 0)" "${t[asr_python]}" "$asr_clips"
echo "  ratio $(ratio "${t[asr_python]%% *}" "${t[asr_sekit1]%% *}") (target 1x), --jobs 1 -> 2: $(ratio "${t[asr_sekit1]%% *}" "${t[asr_sekit2]%% *}") (target 1.6x)"
status=0
(cd scripts/bench && "$python" -c 'import score_reference, sys; sys.exit(score_reference.compare(*sys.argv[1:3], 1e-6))' \
    "$work/sdr-sekit.json" "$work/sdr-python.json") || status=1
(cd scripts/bench && "$python" -c 'import score_reference, sys; sys.exit(score_reference.compare(*sys.argv[1:3], 1e-3))' \
    "$work/srmr-sekit.json" "$work/srmr-python.json") || status=1
(cd scripts/bench && "$python" -c 'import score_reference, sys; sys.exit(score_reference.compare(*sys.argv[1:3], 1e-5))' \
    "$work/speaker-sekit.json" "$work/speaker-python.json") || status=1
(cd scripts/bench && "$python" -c 'import score_reference, sys; sys.exit(score_reference.compare(*sys.argv[1:3], 0.0))' \
    "$work/asr-sekit.json" "$work/asr-python.json") || status=1
exit "$status"
