#!/usr/bin/env bash
# Integration test of the Slurm driver on a real single-node Slurm cluster (no mocks):
#  1. builds sekit (debug, incremental; or uses $SEKIT_BIN),
#  2. starts scripts/slurm/local-cluster.sh in a temporary folder (always stopped at the end),
#  3. for two pipelines, --method wiener (mix, features, enhance, score) and --checkpoint DIR
#     (mix, features with the IRM, features merge, synthesize DIR/predictions.h5 = that IRM as
#     "mask", score): runs it single-process (the array tasks' commands without --shard, one
#     catalogue) and keeps it aside, then runs scripts/slurm/run.sh RECIPE 4 into the same folder
#     and waits for its jobs,
#  4. compares: corpus audio (byte-identical) and manifests (union of the shard manifests in clip
#     order = manifest.jsonl), the feature file (byte-identical but for run ids), the enhanced
#     WAVs, the per-clip CSV (byte-identical), the summary JSON and the catalogue (identical but
#     for run ids, times, hosts, pids, command lines: scripts/test-support/slurm_compare.py),
#  5. (--method) marks one features shard and one score shard failed (their runs failed, their
#     outputs removed), checks with --dry-run and OUT/slurm-jobs.txt that re-submitting submits
#     exactly those two tasks and the merge, runs it and compares again; a third run has nothing
#     to submit.
# Every failed step (with the end of its log) and comparison is named; the exit status is 1 if
# any failed.
#
# The recipe mixes 16 clips of 2 s from datasets/fixtures speech and noise (SEKIT_FIXTURES
# overrides the folder). Without them the test is skipped, except under CI=true, where that fails.
# Needs root (slurmd); Debian's slurm-wlm and munge are installed by scripts/setup.sh, h5copy
# (hdf5-tools) makes the checkpoint's predictions.
# Environment: SEKIT_BIN (sekit to use), SEKIT_SLURM_TEST_TIMEOUT (seconds to wait for one
# submission's jobs, default 600), SEKIT_SLURM_KEEP=1 (keep the temporary folder; it is kept
# anyway on failure).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
log() { echo "test-slurm: $*" >&2; }
indent() { sed 's/^/    /' >&2; }
started=$SECONDS

if [[ $(id -u) -ne 0 ]]; then
    log "FAILED: needs root (slurmd must run as root to start jobs); run it as root or in a container where you are root"
    exit 1
fi
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

fixtures="$("$root/scripts/fixtures.sh")" || { log "FAILED: the fixtures are incomplete (above)"; exit 1; }
command -v h5copy >/dev/null || { log "FAILED: h5copy not found (hdf5-tools; scripts/setup.sh installs it)"; exit 1; }

if [[ -n "${SEKIT_BIN:-}" ]]; then
    sekit="$SEKIT_BIN"
else
    log "building sekit (debug, incremental)"
    swift build --product sekit 2>&1 | tail -n 3 >&2
    sekit="$(swift build --show-bin-path)/sekit"
fi
[[ -x "$sekit" ]] || { log "FAILED: no sekit binary at $sekit"; exit 1; }
sekit="$(cd "$(dirname "$sekit")" && pwd)/$(basename "$sekit")"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/sekit-slurm-test.XXXXXX")"
[[ -d "$tmp" && "$tmp" == */sekit-slurm-test.* ]] || { log "FAILED: mktemp gave '$tmp'"; exit 1; }
cluster="$tmp/cluster"
checkpoint="$tmp/checkpoint"
failures=()
fail() { failures+=("$1"); log "FAILED: $1"; }
cleanup() {
    local status=$?
    scripts/slurm/local-cluster.sh stop "$cluster" >/dev/null 2>&1 || true
    if ((status == 0 && ${#failures[@]} == 0)) && [[ "${SEKIT_SLURM_KEEP:-0}" != 1 ]]; then
        rm -rf "$tmp"
    else
        log "kept $tmp (single-process references in single*/, Slurm runs in work*/, cluster logs in cluster/log)"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The subcommands the driver needs from other work in progress: a missing one is reported by
# name (the step that needs it fails below, and the test with it).
missing=()
"$sekit" features --help 2>&1 | grep -q -- '--shard' || missing+=("sekit features --shard")
"$sekit" features --help 2>&1 | grep -Eq '^ +merge ' || missing+=("sekit features merge")
"$sekit" synthesize --help 2>&1 | grep -q -- '--shard' || missing+=("sekit synthesize --shard")
"$sekit" score --help 2>&1 | grep -q -- '--from-run' || missing+=("sekit score --from-run")
if ((${#missing[@]})); then
    log "note: $sekit lacks: ${missing[*]} (the steps that use them will fail and be reported)"
fi

recipe="$tmp/recipe.yaml"
cat > "$recipe" <<EOF
description: scripts/test-slurm.sh, 16 clips of 2 s from the real-audio fixtures.
speech: $fixtures/speech
noise: $fixtures/noise
count: 16
seconds: 2
snr-db: "-5,0,5,10"
noises-per-clip: "1:2"
level-dbfs: "-30:-20"
split: train=0.75,test=0.25
seed: 23
EOF

# The single-process reference of a pipeline: array.sbatch's commands without --shard, one
# catalogue, run from (and into) $work, the folder the Slurm run will use (so paths and working
# folders are the same), then moved to $single.
reference_commands() { # FLOW (method|checkpoint); runs in $work, stops at the first failure
    local catalog="$work/catalog.sqlite"
    set -x
    "$sekit" mix --recipe "$recipe" --out "$work/corpus" --jobs 2 --catalog "$catalog"
    if [[ "$1" == method ]]; then
        "$sekit" features --corpus "$work/corpus" --out "$work/features.h5" --jobs 2 --catalog "$catalog"
        "$sekit" enhance --method wiener --corpus "$work/corpus" --out "$work/enhanced" --jobs 2 --catalog "$catalog"
    else
        "$sekit" features --corpus "$work/corpus" --out "$work/features.h5" --jobs 2 --catalog "$catalog" \
            --targets clean,irm
        # The "model": the oracle IRM, as predictions over the feature file's frames.
        mkdir -p "$checkpoint"
        rm -f "$checkpoint/predictions.h5"
        h5copy -i "$work/features.h5" -o "$checkpoint/predictions.h5" -s /irm -d /mask
        "$sekit" synthesize --features "$work/features.h5" --predictions "$checkpoint/predictions.h5" \
            --dataset mask --corpus "$work/corpus" --out "$work/enhanced" --jobs 2 --catalog "$catalog"
    fi
    "$sekit" score --corpus "$work/corpus" --enhanced "$work/enhanced" --jobs 2 \
        --per-clip "$work/scores/per-clip.csv" --catalog "$catalog" --format json > "$work/scores/summary.json"
}

reference_run() { # FLOW
    local flow="$1" status
    log "$flow: single-process reference run"
    mkdir -p "$work/scores"
    # Not in an `||` list, so that `set -e` holds inside the subshell.
    set +e
    (set -e; cd "$work"; reference_commands "$flow") > "$tmp/single-$flow.log" 2>&1
    status=$?
    set -e
    if ((status)); then
        tail -n 20 "$tmp/single-$flow.log" | indent
        fail "$flow: the single-process reference run failed (log: $tmp/single-$flow.log)"
        return 1
    fi
    mv "$work" "$single"
    log "$flow: single-process run done ($((SECONDS - started)) s so far)"
}

# Waits for the jobs of $work/slurm-jobs.txt; then checks each step's tasks completed, naming the
# failed ones with their log's end. Returns 1 when a job did not complete.
wait_for_jobs() {
    local timeout="${SEKIT_SLURM_TEST_TIMEOUT:-600}" t0=$SECONDS ids=() step job joined
    while read -r step job _; do
        [[ "$step" == \#* || -z "${job:-}" ]] && continue
        ids+=("$job")
    done < "$work/slurm-jobs.txt"
    joined="$(IFS=,; echo "${ids[*]}")"
    while [[ -n "$(squeue --noheader -j "$joined" -o '%i' 2>/dev/null)" ]]; do
        if ((SECONDS - t0 > timeout)); then
            log "FAILED: jobs $joined still queued or running after ${timeout} s (SEKIT_SLURM_TEST_TIMEOUT):"
            squeue -j "$joined" >&2 || true
            for f in "$work"/logs/*.out; do echo "--- $f" >&2; tail -n 10 "$f" >&2; done
            tail -n 20 "$cluster/log/slurmctld.log" "$cluster/log/slurmd.log" >&2 || true
            scancel "${ids[@]}" 2>/dev/null || true
            return 1
        fi
        sleep 1
    done
    local ok=0 line state task logfile
    while read -r step job _; do
        [[ "$step" == \#* || -z "${job:-}" ]] && continue
        while read -r line; do
            state="$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<< "$line")"
            task="$(sed -n 's/.*ArrayTaskId=\([0-9,%-]*\).*/\1/p' <<< "$line")"
            [[ -z "$state" || "$state" == COMPLETED ]] && continue
            ok=1
            if [[ "$state" == CANCELLED ]]; then
                log "step $step${task:+ tasks $task} (job $job) was cancelled: a step it depends on failed"
                continue
            fi
            logfile="$work/logs/$step-${job}${task:+_$task}.out"
            log "step $step${task:+ task $task} (job $job): $state; end of $logfile:"
            tail -n 8 "$logfile" 2>/dev/null | indent || true
        done < <(scontrol show job --oneliner "$job" 2>/dev/null)
    done < "$work/slurm-jobs.txt"
    return $ok
}

# Whether a step's job of the last submission completed (every task).
step_completed() {
    local wanted="$1" step job states
    while read -r step job _; do
        [[ "$step" == "$wanted" ]] || continue
        states="$(scontrol show job --oneliner "$job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)"
        [[ -n "$states" ]] && ! grep -vq 'JobState=COMPLETED' <<< "$states"
        return
    done < "$work/slurm-jobs.txt"
    return 1
}

compare() { # NAME COMMAND...: runs a comparison, records its failure under NAME
    local name="$1" output
    shift
    if output="$("$@" 2>&1)"; then
        log "ok: $name${output:+: ${output##*$'\n'}}"
    else
        fail "$name"
        indent <<< "$output"
    fi
}

compare_audio_folder() { # FOLDER (relative to the two outputs)
    local folder="$1" left right
    left="$(cd "$single" && find "$folder" -type f -name '*.wav' | sort | xargs -r sha256sum)"
    right="$(cd "$work" && find "$folder" -type f -name '*.wav' 2>/dev/null | sort | xargs -r sha256sum)"
    if [[ -z "$left" ]]; then echo "no WAV files in $single/$folder"; return 1; fi
    if [[ -z "$right" ]]; then echo "no WAV files in $work/$folder"; return 1; fi
    if [[ "$left" != "$right" ]]; then
        echo "$folder differs (sha256 of each WAV; < single-process, > Slurm):"
        diff <(echo "$left") <(echo "$right") | head -n 20
        return 1
    fi
    echo "$(wc -l <<< "$left") WAV files byte-identical"
}

compare_all() { # FLOW LABEL
    local flow="$1" label="$2" shards=() step i
    for step in mix features enhance merge-features synthesize score merge; do
        grep -q "^$step " "$work/slurm-jobs.txt" 2>/dev/null || continue
        step_completed "$step" || log "$label: step $step did not complete; comparing what there is"
    done
    compare "$label: corpus noisy/clean/noise WAVs" compare_audio_folder corpus
    for ((i = 1; i <= 4; i++)); do shards+=("$work/corpus/manifest-shard-$i-of-4.jsonl"); done
    compare "$label: manifests" python3 scripts/test-support/slurm_compare.py manifest "$single/corpus/manifest.jsonl" "${shards[@]}"
    compare "$label: mix.json" cmp "$single/corpus/mix.json" "$work/corpus/mix.json"
    if [[ -f "$work/features.h5" ]]; then
        compare "$label: features.h5 (run ids blanked)" python3 scripts/test-support/slurm_compare.py blanked "$single/features.h5" "$work/features.h5"
    else
        fail "$label: no merged feature file $work/features.h5 (a features or merge step did not complete)"
    fi
    compare "$label: $([[ $flow == method ]] && echo enhanced || echo synthesized) WAVs" compare_audio_folder enhanced
    if [[ -f "$work/scores/per-clip.csv" ]]; then
        compare "$label: per-clip CSV" cmp "$single/scores/per-clip.csv" "$work/scores/per-clip.csv"
    else
        fail "$label: no merged per-clip CSV $work/scores/per-clip.csv (step merge did not complete)"
    fi
    if [[ -s "$work/scores/summary.json" ]]; then
        compare "$label: summary JSON" python3 scripts/test-support/slurm_compare.py json "$single/scores/summary.json" "$work/scores/summary.json"
    else
        fail "$label: no summary $work/scores/summary.json (step merge did not complete)"
    fi
    if [[ -f "$work/catalog.sqlite" ]]; then
        compare "$label: catalogue" python3 scripts/test-support/slurm_compare.py catalog "$single/catalog.sqlite" "$work/catalog.sqlite"
    else
        fail "$label: no merged catalogue $work/catalog.sqlite (step merge did not complete)"
    fi
}

# Re-submission after failures: features shard 2 and score shard 3 fail (their runs marked
# failed, their outputs removed); only those tasks and the merge may be submitted again.
resubmission() {
    local dry expected got
    if ! python3 - "$work" <<'PYTHON'
import sqlite3, sys
work = sys.argv[1]
for kind, shard in (("features", 2), ("score", 3)):
    db = sqlite3.connect(f"{work}/catalogs/shard-{shard}-of-4.sqlite")
    with db:
        changed = db.execute("update runs set status = 'failed', error = 'failed on purpose by scripts/test-slurm.sh' "
                             "where kind = ? and status = 'finished'", (kind,)).rowcount
    if changed != 1:
        sys.exit(f"{kind} runs marked failed in shard {shard}: {changed}, expected 1")
    db.close()
PYTHON
    then
        fail "method: could not mark the features run of shard 2 and the score run of shard 3 failed"
        return
    fi
    rm -f "$work/features/shard-2-of-4.h5" "$work/scores/per-clip-shard-3-of-4.csv"
    dry="$("${driver[@]}" --dry-run 2>&1)"
    expected="mix: complete (all 4 shards), skipped
features: tasks 2 (complete: 1,3-4)
enhance: complete (all 4 shards), skipped
score: tasks 3 (complete: 1-2,4)
merge: one job"
    got="$(sed -n 's/^  //p' <<< "$dry")"
    if [[ "$got" != "$expected" ]]; then
        fail "method: re-submission --dry-run plans other tasks than features 2, score 3 and the merge"
        indent <<< "$dry"
    elif ! grep -q -- '--array=2 .*array.sbatch features' <<< "$dry" || ! grep -q -- '--array=3 .*array.sbatch score' <<< "$dry"; then
        fail "method: re-submission --dry-run sbatch commands do not hold --array=2 (features) and --array=3 (score)"
        indent <<< "$dry"
    else
        log "ok: method: re-submission --dry-run plans features task 2, score task 3 and the merge"
    fi
    "${driver[@]}" >&2
    got="$(grep -v '^#' "$work/slurm-jobs.txt" | awk '{print $1, $3}')"
    if [[ "$got" != $'features 2\nscore 3\nmerge -' ]]; then
        fail "method: re-submission submitted other jobs than features task 2, score task 3 and the merge: $(tr '\n' ';' <<< "$got")"
    else
        log "ok: method: re-submitted (slurm-jobs.txt): features task 2, score task 3, merge"
    fi
    if ! wait_for_jobs; then fail "method: Slurm jobs of the re-submission (see above)"; fi
    compare_all method "method, re-submitted"
    # Everything is complete now: another run has nothing to submit.
    if "${driver[@]}" --dry-run 2>&1 | grep -q 'nothing to submit'; then
        log "ok: method: a third run.sh has nothing to submit"
    else
        fail "method: after a complete run, run.sh still plans jobs"
    fi
}

# The cluster.
scripts/slurm/local-cluster.sh start "$cluster"
export SLURM_CONF="$cluster/slurm.conf"

# --method wiener, then a re-submission after two failed shards.
work="$tmp/work" single="$tmp/single"
driver=(scripts/slurm/run.sh "$recipe" 4 --out "$work" --method wiener --jobs 1 --time 10:00 --sekit "$sekit")
if reference_run method; then
    log "method: submitting: ${driver[*]}"
    "${driver[@]}" >&2
    if ! wait_for_jobs; then fail "method: Slurm jobs of the first submission (see above)"; fi
    log "method: Slurm run done ($((SECONDS - started)) s so far)"
    before=${#failures[@]}
    compare_all method method
    if ((${#failures[@]} == before)); then
        resubmission
    else
        fail "method: re-submission not tested: the first Slurm run did not match the single-process run"
    fi
fi

# --checkpoint: a model's predictions resynthesised and scored.
work="$tmp/work-checkpoint" single="$tmp/single-checkpoint"
driver=(scripts/slurm/run.sh "$recipe" 4 --out "$work" --checkpoint "$checkpoint" --dataset mask
        --features-args "--targets clean,irm" --jobs 1 --time 10:00 --sekit "$sekit")
if reference_run checkpoint; then
    log "checkpoint: submitting: ${driver[*]}"
    "${driver[@]}" >&2
    if ! wait_for_jobs; then fail "checkpoint: Slurm jobs (see above)"; fi
    log "checkpoint: Slurm run done ($((SECONDS - started)) s so far)"
    compare_all checkpoint checkpoint
fi

elapsed=$((SECONDS - started))
if ((${#failures[@]})); then
    log "${#failures[@]} failure(s) in ${elapsed} s:"
    printf '  - %s\n' "${failures[@]}" >&2
    if ((${#missing[@]})); then log "waiting for: ${missing[*]}"; fi
    exit 1
fi
log "all comparisons agree (${elapsed} s)"
