#!/usr/bin/env bash
# Kill test of `sekit catalog merge` into an existing catalogue: the merge that folds the shard
# runs of a mix and of a score (SHARDS shard catalogues of CLIPS_PER_SHARD clips each) is killed
# with SIGKILL KILLS times, then run again until it succeeds; the folded runs must never be
# `finished` with part of their rows, `catalog check` must find an interrupted fold, and the
# completed merge must equal an uninterrupted one.
#
#   scripts/stress/merge-kills.sh                          # 10 kills, 3 shards of 10,000 clips
#   KILLS=3 CLIPS_PER_SHARD=2000 scripts/stress/merge-kills.sh
#   SEKIT=/path/to/sekit STRESS_DIR=/data/tmp KEEP=1 scripts/stress/merge-kills.sh
#
# Steps:
#  1. Shard catalogues: `sekit mix --shard i/SHARDS` of 10 half-second clips per shard from the
#     fixtures and `sekit score --shard i/SHARDS` (snr, sisdr) of that corpus, shard i into
#     shard-i.sqlite; each shard's clips (and their score rows) are then copied with sqlite3 under
#     new clip ids and indices (same shard) up to CLIPS_PER_SHARD, and the counts the runs record
#     (`clips_written`, `clips`) set to match. The existing output: a catalogue holding an import
#     of the fixtures' noise folder.
#  2. Reference: the merge into a copy of that output, uninterrupted; its wall time is measured.
#  3. KILLS cycles, each on a fresh copy of the output: the merge, killed after a delay (cycle 1:
#     as soon as the first input's rows are in, so that at least one kill lands mid-fold; the
#     others: uniform in [0, the reference's wall time), bash RANDOM seeded with SEED). Right after
#     the kill: no folded run is `finished` with fewer rows than the reference's. Odd cycles then
#     run `sekit catalog check` (exit 1 when the kill left a fold, which it marks failed as
#     abandoned and names), even cycles run the merge again first. The merge is run again until it
#     exits 0; then `catalog check` must exit 0, and the folded runs, their parameters, clips,
#     scores and aggregates must equal the reference's, with no `.tmp-` file left.
#  4. Prints a summary table on stdout (progress on stderr); exit 1 on any mismatch.
#
# Environment: KILLS (10), SEED (20261125), SHARDS (3), CLIPS_PER_SHARD (10000), SEKIT (binary;
# default: build), SEKIT_FIXTURES (default datasets/fixtures; scripts/fixtures.sh), STRESS_DIR (parent of the work
# folder), KEEP=1 (keep the work folder). Needs bash, coreutils, sqlite3 (and common.sh).
set -euo pipefail
source "$(dirname "$0")/common.sh"
kills="${KILLS:-10}"
seed="${SEED:-20261125}"
shards="${SHARDS:-3}"
per_shard="${CLIPS_PER_SHARD:-10000}"
base_per_shard=10
stress_init merge-kills sqlite3
now() { date +%s.%N; }
q() { sqlite3 -batch -noheader "$@"; }

# ---------------------------------------------------------------- shard catalogues
say "shard catalogues: $shards shards of a mix and a score, inflated to $per_shard clips each"
copies=$(( (per_shard + base_per_shard - 1) / base_per_shard - 1 ))
for i in $(seq 1 "$shards"); do
    "$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --count $((shards * base_per_shard)) --seconds 0.5 \
        --snr-db=0,5,10 --seed 5 --out "$work/corpus" --shard "$i/$shards" --jobs 1 --catalog "$work/shard-$i.sqlite" \
        >"$log/mix-$i.out" 2>"$log/mix-$i.err"
done
for i in $(seq 1 "$shards"); do
    shard_cat="$work/shard-$i.sqlite"
    "$sekit" score --corpus "$work/corpus" --metrics snr,sisdr --shard "$i/$shards" --jobs 1 --checkpoint noisy \
        --catalog "$shard_cat" >"$log/score-$i.out" 2>"$log/score-$i.err"
    mix_run=$(q "$shard_cat" "SELECT id FROM runs WHERE kind = 'mix'")
    cols=$(q "$shard_cat" "SELECT group_concat(name, ',') FROM pragma_table_info('clips')")
    # Copy k of clip RUN/ID is RUN/cK-ID at index + k * 1,000,000 * SHARDS (the same shard).
    select=$(tr ',' '\n' <<<"$cols" | awk -v n="$shards" '
        $0 == "id" { print "run_id || '"'"'/c'"'"' || k || '"'"'-'"'"' || substr(id, length(run_id) + 2)"; next }
        $0 == "clip_index" { print "clip_index + k * 1000000 * " n; next }
        { print $0 }' | paste -sd, -)
    q "$shard_cat" "
        BEGIN;
        WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < $copies)
        INSERT INTO clips ($cols) SELECT $select FROM clips, n WHERE run_id = '$mix_run';
        WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < $copies)
        INSERT INTO clip_scores (run_id, clip_id, metric, value, noisy_value, error)
            SELECT s.run_id, substr(s.clip_id, 1, instr(s.clip_id, '/')) || 'c' || k || '-' || substr(s.clip_id, instr(s.clip_id, '/') + 1),
                   s.metric, s.value, s.noisy_value, s.error
            FROM clip_scores AS s, n WHERE s.clip_id NOT LIKE '%/c%-%';
        UPDATE params SET value_text = (SELECT count(*) FROM clips WHERE run_id = params.run_id),
                          value_number = (SELECT count(*) FROM clips WHERE run_id = params.run_id)
            WHERE key = 'clips_written' AND run_id = '$mix_run';
        UPDATE params SET value_text = (SELECT count(DISTINCT clip_id) FROM clip_scores WHERE run_id = params.run_id),
                          value_number = (SELECT count(DISTINCT clip_id) FROM clip_scores WHERE run_id = params.run_id)
            WHERE key = 'clips' AND run_id IN (SELECT id FROM runs WHERE kind = 'score');
        COMMIT;"
done
inputs=()
for i in $(seq 1 "$shards"); do inputs+=("$work/shard-$i.sqlite"); done
clips_total=$(( $(q "${inputs[0]}" "SELECT count(*) FROM clips") * shards ))
say "inputs hold $clips_total clips in all"
template="$work/out-template.sqlite"
"$sekit" catalog import --kind noise --corpus noise "$fixtures/noise" --catalog "$template" >"$log/import.out" 2>"$log/import.err"

# folded_view DB: the folded runs (kind, name, status) with their params (but the fold's own run
# ids), clip and score counts and aggregates.
folded_view() {
    q "$1" "SELECT r.kind, r.name, r.status, p.key, p.value_text FROM runs r JOIN params p ON p.run_id = r.id
            WHERE r.id IN (SELECT run_id FROM params WHERE key = 'folded_shards') AND p.key != 'folded_runs' ORDER BY r.kind, p.key"
    q "$1" "SELECT r.kind, (SELECT count(*) FROM clips WHERE run_id = r.id), (SELECT count(*) FROM clip_scores WHERE run_id = r.id)
            FROM runs r WHERE r.id IN (SELECT run_id FROM params WHERE key = 'folded_shards') ORDER BY r.kind"
    q "$1" "SELECT m.metric, m.subset, quote(m.mean), quote(m.std), quote(m.ci95_low), quote(m.ci95_high), m.n FROM run_metrics m
            JOIN params p ON p.run_id = m.run_id AND p.key = 'folded_shards' ORDER BY m.metric, m.subset"
    q "$1" "SELECT count(*) FROM runs; SELECT count(*) FROM sources; SELECT count(*) FROM clips; SELECT count(*) FROM clip_scores"
}
# partial_finished DB: folded runs that are finished with fewer clips (mix) or scored clips (score) than the reference's.
partial_finished() {
    q "$1" "SELECT r.kind || ' ' || r.id FROM runs r WHERE r.status = 'finished'
            AND r.id IN (SELECT run_id FROM params WHERE key = 'folded_shards')
            AND ((r.kind = 'mix' AND (SELECT count(*) FROM clips WHERE run_id = r.id) < $clips_total)
              OR (r.kind = 'score' AND (SELECT count(DISTINCT clip_id) FROM clip_scores WHERE run_id = r.id) < $clips_total))"
}

# ---------------------------------------------------------------- reference
say "reference: uninterrupted merge into an existing catalogue"
cp "$template" "$work/ref.sqlite"
t0=$(now)
"$sekit" catalog merge "$work/ref.sqlite" "${inputs[@]}" >"$log/ref-merge.out" 2>"$log/ref-merge.err"
t1=$(now)
reftime=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
folded_view "$work/ref.sqlite" >"$work/ref.view"
[[ $(q "$work/ref.sqlite" "SELECT count(*) FROM clips WHERE run_id IN (SELECT run_id FROM params WHERE key = 'folded_shards')") == "$clips_total" ]] \
    || { say "the reference merge does not hold $clips_total clips"; exit 1; }
"$sekit" catalog check --catalog "$work/ref.sqlite" >"$log/ref-check.out" 2>&1 || { say "catalog check of the reference failed"; exit 1; }
say "reference merge: $reftime s"

# ---------------------------------------------------------------- cycles
RANDOM=$seed
mismatches=()
declare -i delivered=0 before_fold=0 mid_fold=0 after_fold=0 matched=0 partial_seen=0 check_found=0
for i in $(seq -w 1 "$kills"); do
    problems=0
    fail() { mismatches+=("cycle $i: $*"); problems=$((problems + 1)); say "  MISMATCH: $*"; }
    out="$work/out-$i.sqlite"
    cp "$template" "$out"
    "$sekit" catalog merge "$out" "${inputs[@]}" >"$log/merge-$i.out" 2>"$log/merge-$i.err" &
    pid=$!
    children=("$pid")
    if (( 10#$i == 1 )); then
        # Until the first input's rows are under the folded run.
        delay="the end of the first input"
        for _ in $(seq 1 3000); do
            n=$(q "$out" "SELECT count(*) FROM clips WHERE run_id IN (SELECT run_id FROM params WHERE key = 'folded_shards')" 2>/dev/null || echo 0)
            [[ ${n:-0} -gt 0 ]] && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.01
        done
    else
        r=$(( (RANDOM << 15) | RANDOM ))
        delay=$(awk -v t="$reftime" -v r="$r" 'BEGIN { printf "%.3f", t * r / 1073741824 }')
        sleep "$delay"
        delay+=" s"
    fi
    kill -KILL "$pid" 2>/dev/null || true
    rc=0; wait "$pid" 2>/dev/null || rc=$?
    children=()
    state="ended before the kill"
    if [[ $rc == 137 ]]; then
        delivered+=1
        folds=$(q "$out" "SELECT count(*) FROM params WHERE key = 'folded_shards'")
        unfinished=$(q "$out" "SELECT count(*) FROM runs WHERE status != 'finished' AND id IN (SELECT run_id FROM params WHERE key = 'folded_shards')")
        if [[ $folds == 0 ]]; then before_fold+=1; state="killed before the fold began"
        elif [[ $unfinished != 0 || -n "$(partial_finished "$out")" ]]; then mid_fold+=1; state="killed mid-fold"
        else after_fold+=1; state="killed after the fold completed"
        fi
    elif [[ $rc != 0 ]]; then
        fail "the merge exited $rc without being killed: $(tail -1 "$log/merge-$i.err")"
    fi
    partial=$(partial_finished "$out")
    if [[ -n "$partial" ]]; then partial_seen+=1; fail "finished folded runs holding part of their rows after the kill: $partial"; fi
    if (( 10#$i % 2 == 1 )) && [[ $state == "killed mid-fold" ]]; then
        crc=0
        "$sekit" catalog check --catalog "$out" --format csv >"$log/check-$i-before.csv" 2>&1 || crc=$?
        if [[ $crc == 1 ]] && grep -q '^abandoned-run,' "$log/check-$i-before.csv"; then
            check_found+=1
            err=$(q "$out" "SELECT error FROM runs WHERE status = 'failed' AND id IN (SELECT run_id FROM params WHERE key = 'folded_shards') LIMIT 1")
            [[ $err == *"run the same merge again"* ]] || fail "the abandoned fold's error does not say to merge again: $err"
        else
            fail "catalog check after a mid-fold kill exited $crc: $(tr '\n' ' ' <<<"$(cat "$log/check-$i-before.csv")")"
        fi
    fi
    attempt=0
    while true; do
        attempt=$((attempt + 1))
        mrc=0
        "$sekit" catalog merge "$out" "${inputs[@]}" >"$log/merge-$i-r$attempt.out" 2>"$log/merge-$i-r$attempt.err" || mrc=$?
        [[ $mrc == 0 ]] && break
        if (( attempt >= 3 )); then fail "the merge failed $attempt times after the kill (exit $mrc): $(tail -1 "$log/merge-$i-r$attempt.err")"; break; fi
    done
    crc=0
    "$sekit" catalog check --catalog "$out" --format csv >"$log/check-$i.csv" 2>&1 || crc=$?
    [[ $crc == 0 ]] || fail "catalog check after the merge completed exited $crc: $(tail -n +2 "$log/check-$i.csv" | head -3 | tr '\n' ' ')"
    d=$(diff <(folded_view "$out") "$work/ref.view") || fail "the completed merge differs from the reference: $(head -6 <<<"$d" | tr '\n' ' ')"
    tmps=$(find "$work" -maxdepth 1 -name '.*.tmp-*' | wc -l)
    (( tmps == 0 )) || fail "$tmps temporary files left"
    (( problems == 0 )) && matched+=1
    say "cycle $i/$kills: kill at $delay s: $state; completed after $attempt run(s); $( ((problems == 0)) && echo match || echo MISMATCH)"
done

# ---------------------------------------------------------------- summary
echo "SEKit merge kill test: $kills SIGKILLs of a merge folding $shards mix and $shards score shard runs ($clips_total clips) into an existing catalogue, seed $seed"
echo "reference merge: $reftime s (kill delays: cycle 1 after the first input, the others uniform in [0, that))"
printf '%6s %10s %12s %9s %12s %18s %16s %8s\n' kills delivered before-fold mid-fold after-fold partial-finished check-found matched
printf '%6d %10d %12d %9d %12d %18d %16d %8d\n' "$kills" "$delivered" "$before_fold" "$mid_fold" "$after_fold" "$partial_seen" \
    "$check_found" "$matched"
if (( ${#mismatches[@]} > 0 )); then
    echo "MISMATCHES:"
    printf '  %s\n' "${mismatches[@]}"
    exit 1
fi
echo "result: no kill left a finished fold with part of its rows; every completed merge equals the uninterrupted one"
