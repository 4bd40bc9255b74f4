#!/usr/bin/env bash
# Concurrency test: WRITERS writers of every kind (`catalog import`, `mix`, `features`, `score`,
# `synthesize`) run at the same time against ONE catalogue file, then the catalogue is checked
# for lost rows, busy errors and integrity.
#
#   scripts/stress/concurrent.sh                 # 8 writers of each of the 5 kinds: 40 processes
#   WRITERS=4 MIX_CLIPS=50 scripts/stress/concurrent.sh
#   SEKIT=/path/to/sekit STRESS_DIR=/data/tmp KEEP=1 scripts/stress/concurrent.sh
#
# Setup (one process at a time, same catalogue): two base corpora (`sekit mix` of BASE_CLIPS
# clips from a copy of the fixtures, so the concurrent mixes below still have sources to register),
# the features file of the first (with the `irm` target, for `synthesize`), and one copy of the
# fixtures per import writer (imports must not catalogue the files the mixes use: a mix reuses the
# id of a file already catalogued, which would make the expected counts depend on timing).
#
# Concurrent phase, all with `--catalog` the same file and `--jobs 1`, started together
# (k = 1..WRITERS; names carry the round too):
#   import  k: `catalog import --kind speech|noise|rir --corpus imp-k` of its fixture copy
#   mix     k: `mix` of MIX_CLIPS one-second clips (seed 100+k) from the fixtures into mix-k/
#              (the mixes race to register the same fixture files as sources)
#   features k: `features` of base corpus a or b (float32 or float16, clean or irm targets)
#   score   k: `score --corpus` a or b, --per-clip CSV and JSON, checkpoint c-k
#   synthesize k: `synthesize` of the irm oracle mask of base a into syn-k/
# Then it checks that every process exited 0 (SQLite busy errors on stderr are counted: the
# catalogue uses WAL and a 10 s busy timeout), that each table grew by exactly what the writers
# report they recorded (runs: one per writer; sources: every file an import added plus every
# distinct fixture file the mixes' manifests use; clips and clip_noises: the mixes' manifests;
# artifacts: one manifest per mix and one file per features run; clip_scores: clips x metrics
# and run_metrics: the summary rows of each score's JSON), that every writer's run is `finished`,
# `PRAGMA integrity_check` and `foreign_key_check`, and that `sekit catalog check` is clean.
# Prints a table on stdout (progress on stderr); exit 1 on any lost row, failed writer or
# failed check.
#
# The concurrent phase is repeated ROUNDS times (new outputs, corpus names and seeds each round);
# the figures are totals over the rounds.
#
# Environment: WRITERS (8 per kind), ROUNDS (5), MIX_CLIPS (100), BASE_CLIPS (100), SEKIT (binary; default:
# build), SEKIT_FIXTURES (default datasets/fixtures; scripts/fixtures.sh), STRESS_DIR (parent of the work folder;
# default $TMPDIR or /tmp), KEEP=1 (keep the work folder). Needs bash, coreutils, jq, sqlite3
# (and common.sh beside this script).
# About 40 s on a 2-core machine with the defaults (measured: 37 s).
set -euo pipefail
source "$(dirname "$0")/common.sh"
writers="${WRITERS:-8}"
mix_clips="${MIX_CLIPS:-100}"
base_clips="${BASE_CLIPS:-100}"
rounds="${ROUNDS:-5}"
stress_init concurrent jq sqlite3
mkdir -p "$log" "$work/feat" "$work/score"
tables=(runs params sources clips clip_noises artifacts clip_scores run_metrics)
counts() { for t in "${tables[@]}"; do printf '%s=%s ' "$t" "$(sql "SELECT count(*) FROM $t")"; done; }

# ---------------------------------------------------------------- setup
say "setup: base corpora a and b ($base_clips clips each), features of a, $writers fixture copies for the imports"
mkdir -p "$work/base-inputs"
cp -r "$fixtures/speech" "$fixtures/noise" "$fixtures/rir" "$work/base-inputs/"
"$sekit" mix --speech "$work/base-inputs/speech" --noise "$work/base-inputs/noise" --count "$base_clips" --seconds 1 \
    --snr-db=-5,0,5,10 --seed 1 --jobs 2 --out "$work/base-a" --catalog "$cat" >"$log/setup-a.out" 2>"$log/setup-a.err"
"$sekit" mix --speech "$work/base-inputs/speech" --noise "$work/base-inputs/noise" --rir "$work/base-inputs/rir/small_room.wav" --rir "$work/base-inputs/rir/rir_clap.wav" \
    --count "$base_clips" --seconds 1 --snr-db=0:15 --seed 2 --jobs 2 --out "$work/base-b" \
    --catalog "$cat" >"$log/setup-b.out" 2>"$log/setup-b.err"
"$sekit" features --corpus "$work/base-a" --out "$work/base-a.h5" --targets clean,irm --jobs 2 --catalog "$cat" \
    >"$log/setup-features.out" 2>"$log/setup-features.err"
kinds=(speech noise rir)
for k in $(seq 1 "$writers"); do
    mkdir -p "$work/imports/$k"
    cp -r "$fixtures/${kinds[$(( (k - 1) % 3 ))]}" "$work/imports/$k/"
done
before=$(counts)
say "before: $before"

# ---------------------------------------------------------------- concurrent phase
# launch NAME COMMAND...: starts a writer in the background (stdout/stderr in logs/NAME.*).
names=()
launch() {
    local name="$1"; shift
    "$@" >"$log/$name.out" 2>"$log/$name.err" &
    children+=($!); names+=("$name")
}
failed=()
walls=()
for round in $(seq 1 "$rounds"); do
    say "round $round/$rounds: starting $((writers * 5)) writers"
    t0=$(date +%s.%N)
    for k in $(seq 1 "$writers"); do
        w="$round-$k"
        corpus=$([[ $((k % 2)) == 1 ]] && echo a || echo b)
        kind=${kinds[$(( (k - 1) % 3 ))]}
        launch "import-$w" "$sekit" catalog import --kind "$kind" --corpus "imp-$w" --format json --catalog "$cat" "$work/imports/$k"
        launch "mix-$w" "$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --rir "$fixtures/rir/small_room.wav" --rir "$fixtures/rir/rir_clap.wav" \
            --count "$mix_clips" --seconds 1 --snr-db=-5,0,5,10,15 --seed $((100 * round + k)) --jobs 1 --out "$work/mix-$w" --catalog "$cat"
        if [[ $((k % 2)) == 1 ]]; then
            launch "features-$w" "$sekit" features --corpus "$work/base-$corpus" --out "$work/feat/f-$w.h5" --jobs 1 --catalog "$cat"
        else
            launch "features-$w" "$sekit" features --corpus "$work/base-$corpus" --out "$work/feat/f-$w.h5" --dtype float16 \
                --targets irm,noise --jobs 1 --catalog "$cat"
        fi
        launch "score-$w" "$sekit" score --corpus "$work/base-$corpus" --metrics snr,sisdr,stoi --checkpoint "c-$w" \
            --per-clip "$work/score/c-$w.csv" --format json --jobs 1 --catalog "$cat"
        launch "synthesize-$w" "$sekit" synthesize --features "$work/base-a.h5" --dataset irm --kind mask \
            --corpus "$work/base-a" --out "$work/syn-$w" --jobs 1 --catalog "$cat"
    done
    for n in "${!children[@]}"; do
        rc=0; wait "${children[$n]}" || rc=$?
        [[ $rc == 0 ]] || failed+=("${names[$n]} exited $rc: $(tail -1 "$log/${names[$n]}.err")")
    done
    children=(); names=()
    t1=$(date +%s.%N)
    walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')")
    say "round $round: all writers ended after ${walls[-1]} s"
done
wall=$(printf '%s\n' "${walls[@]}" | awk '{ s += $1 } END { printf "%.1f", s }')

# ---------------------------------------------------------------- what the writers recorded
declare -A expected found
expected[runs]=$((writers * 5 * rounds))
added=0
for f in "$log"/import-*.out; do
    added=$((added + $(jq '.added | length' "$f" 2>/dev/null || echo 0)))
done
manifests=("$work"/mix-*/manifest.jsonl)
mix_sources=0; clips=0; noises=0
if (( ${#manifests[@]} > 0 )); then
    mix_sources=$(jq -r '.speech_sources[].path, .noise_sources[].path, (.rir // empty)' "${manifests[@]}" | sort -u | wc -l)
    clips=$(cat "${manifests[@]}" | wc -l)
    noises=$(jq '.noise_sources | length' "${manifests[@]}" | awk '{ s += $1 } END { print s + 0 }')
fi
expected[sources]=$((added + mix_sources))
expected[clips]=$clips
expected[clip_noises]=$noises
expected[artifacts]=$(( ${#manifests[@]} + $(find "$work/feat" -name 'f-*.h5' | wc -l) ))
scores=0; metric_rows=0
for f in "$log"/score-*.out; do
    if jq -e . "$f" >/dev/null 2>&1; then
        scores=$((scores + $(jq '(.clips | length) * (.metrics | length)' "$f")))
        metric_rows=$((metric_rows + $(jq '.summary | length' "$f")))
    fi
done
expected[clip_scores]=$scores
expected[run_metrics]=$metric_rows
after=$(counts)
declare -A base_count after_count
for pair in $before; do base_count[${pair%%=*}]=${pair#*=}; done
for pair in $after; do after_count[${pair%%=*}]=${pair#*=}; done
for t in "${tables[@]}"; do found[$t]=$((after_count[$t] - base_count[$t])); done

# ---------------------------------------------------------------- checks
problems=()
busy=$(cat "$log"/*.err | grep -ciE 'database is locked|database table is locked|sqlite_busy|\bbusy\b' || true)
lost=0
for t in runs sources clips clip_noises artifacts clip_scores run_metrics; do
    if (( found[$t] != expected[$t] )); then
        problems+=("$t: expected $((expected[$t])) new rows, found $((found[$t]))")
        (( found[$t] < expected[$t] )) && lost=$((lost + expected[$t] - found[$t]))
    fi
done
not_finished=$(sql "SELECT kind || ' ' || name || ': ' || status FROM runs WHERE status != 'finished'")
[[ -z "$not_finished" ]] || problems+=("runs not finished: $(tr '\n' ';' <<<"$not_finished")")
runs_by_kind=$(sql "SELECT kind || '=' || count(*) FROM runs GROUP BY kind ORDER BY kind" | tr '\n' ' ')
no_params=$(sql "SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM params)")
(( no_params == 0 )) || problems+=("$no_params runs without params")
integrity=$(sql "PRAGMA integrity_check")
[[ "$integrity" == ok ]] || problems+=("integrity_check: $integrity")
fk=$(sql "PRAGMA foreign_key_check" | wc -l)
(( fk == 0 )) || problems+=("foreign_key_check: $fk rows")
crc=0
"$sekit" catalog check --catalog "$cat" --format csv >"$log/check.csv" 2>&1 || crc=$?
[[ $crc == 0 ]] || problems+=("catalog check exited $crc: $(tail -n +2 "$log/check.csv" | head -3 | tr '\n' ' ')")
(( ${#failed[@]} == 0 )) || problems+=("${failed[@]}")

# ---------------------------------------------------------------- summary
echo "SEKit concurrency test: $writers writers of each kind (import, mix, features, score, synthesize) = $((writers * 5)) processes at once on one catalogue, --jobs 1 each, $rounds rounds"
echo "wall time of the concurrent phase: $wall s (rounds: ${walls[*]} s); writers that exited non-zero: ${#failed[@]} of $((writers * 5 * rounds)); busy errors: $busy"
echo "runs recorded by the concurrent phase: ${found[runs]} (catalogue now: $runs_by_kind)"
printf '%-12s %9s %7s %5s\n' table expected found lost
for t in runs sources clips clip_noises artifacts clip_scores run_metrics; do
    l=$((expected[$t] - found[$t])); (( l < 0 )) && l=0
    printf '%-12s %9d %7d %5d\n' "$t" "${expected[$t]}" "${found[$t]}" "$l"
done
printf '%-12s %9s %7d %5s\n' params "-" "${found[params]}" "-"
echo "lost rows: $lost; integrity_check: $integrity; foreign_key_check rows: $fk; catalog check exit $crc"
if (( ${#problems[@]} > 0 )); then
    echo "PROBLEMS:"; printf '  %s\n' "${problems[@]}"
    exit 1
fi
echo "result: no lost rows, no busy errors, every writer exited 0"
