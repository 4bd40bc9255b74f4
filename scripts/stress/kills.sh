#!/usr/bin/env bash
# Kill test: `sekit mix`, `sekit features` and `sekit score` are each killed with SIGKILL at
# KILLS random moments, run again until they succeed, and their final outputs and catalogue rows
# are compared with an uninterrupted run's.
#
#   scripts/stress/kills.sh                      # 20 kills per command, seed 20251122
#   KILLS=5 SEED=7 scripts/stress/kills.sh       # fewer kills, another schedule
#   SEKIT=/path/to/sekit STRESS_DIR=/data/tmp KEEP=1 scripts/stress/kills.sh
#
# Steps:
#  1. Builds the release `sekit` (or takes $SEKIT).
#  2. Reference: an uninterrupted `sekit mix` of CLIPS (300) one-second clips from the fixtures
#     (speech, noise, RIRs; SNRs -5..15 dB; --jobs 2), then `sekit features` and `sekit score`
#     (--format json and --per-clip) of that corpus; then a second, warm run of each on another
#     output, whose wall time is measured.
#  3. For each command, KILLS cycles: the same command on a fresh output, SIGKILL after a delay
#     drawn uniformly from [0, the command's warm wall time) by bash's RANDOM seeded with
#     SEED (the schedule is reproducible; a kill may arrive after the process ended: counted as
#     not delivered), then the same command again until it exits 0 (mix resumes the folder;
#     features and score start again from scratch; a features output that was already renamed
#     into place before the kill is refused as existing, which ends the cycle too). `sekit
#     catalog check` runs between the kill and the re-run in odd cycles (it must find and mark the
#     killed run failed, exit 1; a resumed mix then takes that run up again) and after the re-run
#     in every cycle (in even cycles the re-run itself marks its abandoned predecessor).
#     After every cycle it checks:
#       mix:      right after the kill, the clips journalled so far are scored with
#                 --allow-incomplete (and refused without it); after the re-run,
#                 every WAV, manifest.jsonl and mix.json byte-identical to the reference; exactly
#                 one finished mix run for the folder, its `catalog clips --format csv` equal to the
#                 reference's (run id and folder normalised), its params equal (but for the
#                 clips_written/clips_resumed counts), its manifest artifact's SHA-256 right; no
#                 clips under any other run for the folder;
#       features: the HDF5 file byte-identical to the reference's once run UUIDs are replaced
#                 (the file stores `features_run_id`, a fresh UUID per run; strings are fixed
#                 36 bytes so the layout does not move); one finished features run whose artifact
#                 is the file (SHA-256), same params and parent;
#       score:    stdout JSON and --per-clip CSV identical to the reference's; one finished score
#                 run whose clip_scores and run_metrics rows equal the reference run's;
#       all:      no `.NAME.tmp-*` temporary files left, no run of the cycle left `running` after
#                 `catalog check`, and `catalog check` reports nothing but abandoned runs.
#  4. Prints a summary table on stdout (progress goes to stderr); exit 1 on any mismatch.
#
# One catalogue for the whole test (the reference runs and every cycle of every command), because
# that is how the catalogue is used: one experiments/catalog.sqlite that accumulates mixes,
# resumptions, killed runs, features and scores. It is also the harder case: a resumed mix must
# reopen its own run among many, killed runs of other commands are abandoned next to it, sources
# must not be registered twice, and `catalog check` re-hashes every artifact recorded so far.
#
# Environment: KILLS (20 per command), SEED (20251122), CLIPS (300), JOBS (2), SEKIT (binary;
# default: build), SEKIT_FIXTURES (default datasets/fixtures; scripts/fixtures.sh), STRESS_DIR (parent of the work
# folder; default $TMPDIR or /tmp), KEEP=1 (keep the work folder). Needs bash, coreutils, perl,
# sqlite3 (and common.sh beside this script). About 4.5 minutes on a 2-core machine with the
# defaults (measured: 4 min 24 s).
#
# Random moments rarely fall inside the short windows around the renames of small files
# (mix.json, manifest.jsonl, the --per-clip CSV). To kill exactly there, inject the signal at the
# Nth rename with strace, e.g. for score's CSV:
#   strace -f -o /dev/null -e trace=rename -e inject=rename:signal=SIGKILL sekit score ... --per-clip k.csv
set -euo pipefail
source "$(dirname "$0")/common.sh"
kills="${KILLS:-20}"
seed="${SEED:-20251122}"
clips="${CLIPS:-300}"
jobs="${JOBS:-2}"
stress_init kills perl sqlite3 sha256sum
now() { date +%s.%N; }

# command_for KIND OUT: sets cmd to the command line writing OUT (score's JSON goes to stdout,
# which the caller sends to OUT with .json for .csv). Started as `"${cmd[@]}" &`, so $! is sekit
# itself. The reference corpus is the input of features and score, so their runs all have the
# same parent and their files the same mix_run_id.
command_for() {
    case "$1" in
        mix) cmd=("$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --rir "$fixtures/rir/small_room.wav" --rir "$fixtures/rir/rir_clap.wav"
                  --count "$clips" --seconds 1 --snr-db=-5,0,5,10,15 --seed 7 --jobs "$jobs" --out "$2" --catalog "$cat") ;;
        features) cmd=("$sekit" features --corpus "$work/ref" --out "$2" --jobs "$jobs" --catalog "$cat") ;;
        score) cmd=("$sekit" score --corpus "$work/ref" --format json --per-clip "$2" --jobs "$jobs" --catalog "$cat") ;;
    esac
}
# run_to KIND OUT LOG [background]: runs the command writing OUT, stdout to LOG.out (score: its
# JSON to OUT with .json for .csv), stderr to LOG.err; with `background`, in the background, its
# pid in children.
run_to() {
    command_for "$1" "$2"
    local stdout="$3.out"
    [[ $1 == score ]] && stdout="${2%.csv}.json"
    if [[ ${4:-} == background ]]; then
        "${cmd[@]}" >"$stdout" 2>"$3.err" &
        children=($!)
    else
        "${cmd[@]}" >"$stdout" 2>"$3.err"
    fi
}

# ---------------------------------------------------------------- normalised views of the state
uuid_re='[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
# hdf5_digest FILE: SHA-256 of the file with every run UUID replaced by a fixed 36-byte string.
hdf5_digest() { perl -0777 -pe "s/$uuid_re/00000000-0000-0000-0000-000000000000/g" "$1" | sha256sum | cut -d' ' -f1; }
# runs_for_out KIND PATH: ids of the KIND runs whose params.out is PATH.
runs_for_out() {
    sql "SELECT r.id FROM runs r JOIN params p ON p.run_id = r.id AND p.key = 'out'
         WHERE r.kind = '$1' AND p.value_text = '$2' ORDER BY r.started_at"
}
# mix_view RUN: the run's clips (CSV), params (but the counts of this invocation) and clip_noises
# (callers replace the run id and folder with placeholders: normalise RUN FOLDER).
mix_view() {
    "$sekit" catalog clips --catalog "$cat" --filter "run = '$1'" --format csv
    sql "SELECT key, value_text FROM params WHERE run_id = '$1' AND key NOT IN ('clips_written', 'clips_resumed') ORDER BY key"
    sql "SELECT n.clip_id, n.position, n.source_id, quote(n.offset_seconds), quote(n.gain) FROM clip_noises n
         JOIN clips c ON c.id = n.clip_id WHERE c.run_id = '$1' ORDER BY n.clip_id, n.position"
}
normalise() { sed -e "s|$1|RUN|g" -e "s|$2|OUT|g"; }
features_view() {
    sql "SELECT key, value_text FROM params WHERE run_id = '$1' AND key != 'out' ORDER BY key"
    sql "SELECT parent_id FROM runs WHERE id = '$1'"
}
score_view() {
    sql "SELECT clip_id, metric, quote(value), quote(noisy_value), quote(error) FROM clip_scores WHERE run_id = '$1' ORDER BY clip_id, metric"
    sql "SELECT metric, subset, quote(mean), quote(std), quote(ci95_low), quote(ci95_high), n FROM run_metrics WHERE run_id = '$1' ORDER BY metric, subset"
    sql "SELECT key, value_text FROM params WHERE run_id = '$1' ORDER BY key"
    sql "SELECT parent_id FROM runs WHERE id = '$1'"
}

# ---------------------------------------------------------------- reference
say "reference: mix of $clips clips, features, score (uninterrupted)"
mkdir -p "$work/feat" "$work/score"
run_to mix "$work/ref" "$log/ref-mix"
run_to features "$work/feat/ref.h5" "$log/ref-features"
run_to score "$work/score/ref.csv" "$log/ref-score"
ref_score_run=$(sql "SELECT id FROM runs WHERE kind = 'score'")
# The kill delays are spread over the run time of a second, warm run of each command (the first
# mix also registers and hashes the sources, which later runs do not).
declare -A reftime
for kind in mix features score; do
    case $kind in mix) o="$work/warm-mix" ;; features) o="$work/feat/warm.h5" ;; score) o="$work/score/warm.csv" ;; esac
    t0=$(now); run_to "$kind" "$o" "$log/warm-$kind"; t1=$(now)
    reftime[$kind]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
done
say "warm wall times: mix ${reftime[mix]} s, features ${reftime[features]} s, score ${reftime[score]} s"
ref_mix_run=$(runs_for_out mix "$work/ref")
ref_features_run=$(runs_for_out features "$work/feat/ref.h5")
[[ $(wc -w <<<"$ref_mix_run $ref_features_run $ref_score_run") == 3 ]] || { say "reference runs not recorded"; exit 1; }
mix_view "$ref_mix_run" | normalise "$ref_mix_run" "$work/ref" >"$work/ref-mix.view"
features_view "$ref_features_run" >"$work/ref-features.view"
score_view "$ref_score_run" >"$work/ref-score.view"
ref_h5=$(hdf5_digest "$work/feat/ref.h5")
sources_before=$(sql "SELECT count(*) FROM sources")
[[ $(wc -l <"$work/ref-mix.view") -gt "$clips" ]] || { say "reference catalogue view is too short"; exit 1; }

# ---------------------------------------------------------------- cycles
RANDOM=$seed
declare -A delivered early midrun late matched mismatched leftovers stillrunning bycheck byrerun reopened attempts_extra
mismatches=()
partial=()          # clips on disk when a mix was killed
for kind in mix features score; do
    delivered[$kind]=0; early[$kind]=0; midrun[$kind]=0; late[$kind]=0; matched[$kind]=0; mismatched[$kind]=0
    leftovers[$kind]=0; stillrunning[$kind]=0; bycheck[$kind]=0; byrerun[$kind]=0; reopened[$kind]=0; attempts_extra[$kind]=0
done
fail() { mismatches+=("$kind #$i: $*"); problems+=1; say "  MISMATCH: $*"; }

# catalog_check LABEL: runs `sekit catalog check` (which marks abandoned runs failed); anything it
# reports but abandoned runs is a mismatch, and its exit status must be 1 exactly when it reports
# something. Sets `marked` to the quoted ids of the runs it marked.
catalog_check() {
    local crc=0 others abandoned
    "$sekit" catalog check --catalog "$cat" --format csv >"$log/check-$1.csv" 2>"$log/check-$1.err" || crc=$?
    others=$(tail -n +2 "$log/check-$1.csv" | grep -v '^abandoned-run,' || true)
    abandoned=$(tail -n +2 "$log/check-$1.csv" | grep -c '^abandoned-run,' || true)
    marked=$(tail -n +2 "$log/check-$1.csv" | awk -F, '$1 == "abandoned-run" { printf "%s'"'"'%s'"'"'", (n++ ? "," : ""), $3 }')
    if [[ -n "$others" ]]; then fail "catalog check reports: $(tr '\n' ' ' <<<"$others")"; fi
    if (( abandoned > 0 )) && [[ $crc != 1 ]]; then fail "catalog check marked $abandoned runs but exited $crc"; fi
    if (( abandoned == 0 )) && [[ -z "$others" && $crc != 0 ]]; then fail "catalog check exited $crc with nothing reported"; fi
    return 0
}
# killed_status: the statuses of the killed process's runs.
killed_status() { sql "SELECT status FROM runs WHERE id IN (${killed_runs:-NULL})" | sort -u | tr '\n' ' '; }
# marked_by_check: 0 when catalog check marked every run of the killed process (listed, now failed).
marked_by_check() {
    [[ -n "$marked" && $(sql "SELECT count(*) FROM runs WHERE id IN ($killed_runs) AND (status != 'failed' OR id NOT IN ($marked))") == 0 ]]
}

for kind in mix features score; do
    for i in $(seq -w 1 "$kills"); do
        declare -i problems=0
        case $kind in
            mix) out="$work/mix-$i" ;;
            features) out="$work/feat/k$i.h5" ;;
            score) out="$work/score/k$i.csv" ;;
        esac
        last_run=$(sql "SELECT coalesce(max(rowid), 0) FROM runs")
        r=$(( (RANDOM << 15) | RANDOM ))
        delay=$(awk -v t="${reftime[$kind]}" -v r="$r" 'BEGIN { printf "%.3f", t * r / 1073741824 }')
        run_to "$kind" "$out" "$log/$kind-$i" background
        killed=${children[0]}
        sleep "$delay"
        kill -KILL "$killed" 2>/dev/null || true
        rc=0; wait "$killed" 2>/dev/null || rc=$?
        children=()
        state="ended before the kill"; killed_runs=""; status_at_kill=""
        if [[ $rc == 137 ]]; then
            delivered[$kind]=$((delivered[$kind] + 1))
            killed_runs=$(sql "SELECT group_concat(quote(id)) FROM runs WHERE pid = $killed AND kind = '$kind'")
            status_at_kill=$(killed_status)
            if [[ -z "$killed_runs" ]]; then
                early[$kind]=$((early[$kind] + 1)); state="killed before its run was recorded"
            elif [[ "$status_at_kill" == *running* ]]; then
                midrun[$kind]=$((midrun[$kind] + 1)); state="killed mid-run"
            else
                late[$kind]=$((late[$kind] + 1)); state="killed after its run was $status_at_kill(before exiting)"
            fi
            if [[ $kind == mix ]]; then
                n=0; [[ -d "$out/noisy" ]] && n=$(find "$out/noisy" -name '*.wav' | wc -l)
                partial+=("$n"); state+=" ($n clips on disk)"
                # The clips journalled before the kill are usable at once: the journal reads as the
                # manifest so far (score refuses the corpus as incomplete, takes it with --allow-incomplete).
                journal="$out/.sekit/journal.jsonl"
                if [[ ! -f "$out/manifest.jsonl" && -f "$journal" ]] && (( $(wc -l <"$journal") > 0 )); then
                    "$sekit" score --corpus "$out" --metrics snr --allow-incomplete --no-catalog >/dev/null 2>"$log/$kind-$i-partial.err" \
                        || fail "score --allow-incomplete of the killed mix failed: $(tail -1 "$log/$kind-$i-partial.err")"
                    if "$sekit" score --corpus "$out" --metrics snr --no-catalog >/dev/null 2>&1; then
                        fail "score took the killed mix's corpus without --allow-incomplete"
                    fi
                fi
            fi
        elif [[ $rc != 0 ]]; then
            fail "the interrupted command exited $rc without being killed: $(tail -1 "$log/$kind-$i.err")"
        fi
        # Odd cycles: `catalog check` between the kill and the re-run (it must find and mark the
        # killed run; a mix then takes its failed run up again); even cycles: re-run first (the
        # re-run of the same command marks its abandoned predecessor), `catalog check` after.
        check_first=0
        if [[ "$status_at_kill" == *running* ]] && (( 10#$i % 2 == 1 )); then
            check_first=1
            catalog_check "$kind-$i-before"
            if marked_by_check; then bycheck[$kind]=$((bycheck[$kind] + 1))
            else fail "catalog check did not mark the killed run (status now: $(killed_status))"; fi
        fi
        # Run the same command again until it succeeds.
        attempt=0; done_state=""
        [[ $rc == 0 ]] && done_state="nothing to re-run"
        while [[ -z "$done_state" ]]; do
            attempt=$((attempt + 1))
            rrc=0
            run_to "$kind" "$out" "$log/$kind-$i-r$attempt" || rrc=$?
            if [[ $rrc == 0 ]]; then
                done_state="rerun ok"
            elif [[ $kind == features && -f "$out" ]] && grep -q "output exists" "$log/$kind-$i-r$attempt.err"; then
                done_state="file committed before the kill"
            elif (( attempt >= 3 )); then
                fail "the command failed $attempt times after the kill (exit $rrc): $(tail -1 "$log/$kind-$i-r$attempt.err")"
                done_state="gave up"
            fi
        done
        (( attempt > 1 )) && attempts_extra[$kind]=$((attempts_extra[$kind] + attempt - 1))
        # Runs of killed processes: marked by catalog check, by the re-run of the same command, or
        # (mix) taken up again and finished by the resumed run.
        status_after_rerun=$(killed_status)
        catalog_check "$kind-$i"
        if [[ "$status_at_kill" == *running* ]]; then
            case "$status_after_rerun" in
                *running*) if marked_by_check; then bycheck[$kind]=$((bycheck[$kind] + 1))
                           else fail "catalog check did not mark the killed run (status now: $(killed_status))"; fi ;;
                *failed*) (( check_first )) || byrerun[$kind]=$((byrerun[$kind] + 1)) ;;
                *finished*) reopened[$kind]=$((reopened[$kind] + 1)) ;;
            esac
        fi
        killed_status=$(killed_status)
        if [[ -n "$killed_runs" ]]; then
            left=$(sql "SELECT count(*) FROM runs WHERE id IN ($killed_runs) AND status = 'running'")
            (( left == 0 )) || fail "the killed process's run is still running after catalog check"
        fi
        running=$(sql "SELECT count(*) FROM runs WHERE status = 'running'")
        if (( running > 0 )); then
            stillrunning[$kind]=$((stillrunning[$kind] + running)); fail "$running runs still running after catalog check"
        fi
        # Temporary files left behind (anywhere in the output).
        case $kind in
            mix) tmps=$(find "$out" -name '.*.tmp-*' | wc -l) ;;
            *) tmps=$(find "$(dirname "$out")" -maxdepth 1 -name ".$(basename "$out").tmp-*" | wc -l) ;;
        esac
        if (( tmps > 0 )); then
            leftovers[$kind]=$((leftovers[$kind] + tmps))
            fail "$tmps temporary files left: $(find "$(dirname "$out")" -name '.*.tmp-*' -printf '%P ' | head -c 300)"
        fi
        # Outputs and catalogue against the reference.
        case $kind in
            mix)
                if ! d=$(diff -rq -x .sekit -x '.*.tmp-*' "$work/ref" "$out" 2>&1); then
                    fail "outputs differ from the reference: $(head -3 <<<"$d" | tr '\n' ' ')"
                fi
                ids=($(runs_for_out mix "$out"))
                fin=$(sql "SELECT id FROM runs WHERE kind = 'mix' AND status = 'finished' AND id IN (SELECT run_id FROM params WHERE key = 'out' AND value_text = '$out')")
                if [[ $(wc -w <<<"$fin") != 1 ]]; then
                    fail "$(wc -w <<<"$fin") finished mix runs for the folder (runs: ${ids[*]})"
                else
                    if ! d=$(diff <(mix_view "$fin" | normalise "$fin" "$out") "$work/ref-mix.view"); then
                        fail "catalogue rows differ from the reference's: $(head -4 <<<"$d" | cut -c1-200 | tr '\n' ' ')"
                    fi
                    art=$(sql "SELECT sha256 FROM artifacts WHERE run_id = '$fin' AND kind = 'mix-manifest'")
                    [[ "$art" == "$(sha256sum <"$out/manifest.jsonl" | cut -d' ' -f1)" ]] || fail "manifest artifact sha256 '$art' is not the file's"
                    extra=$(sql "SELECT count(*) FROM clips WHERE run_id IN (SELECT run_id FROM params WHERE key = 'out' AND value_text = '$out') AND run_id != '$fin'")
                    (( extra == 0 )) || fail "$extra clips recorded under other runs of the folder"
                fi
                (( ${#ids[@]} > 1 )) && state+=", ${#ids[@]} mix runs for the folder"
                ;;
            features)
                if [[ ! -f "$out" ]]; then fail "no output file"
                elif [[ $(hdf5_digest "$out") != "$ref_h5" ]]; then fail "HDF5 file differs from the reference (run ids normalised)"
                fi
                fin=$(sql "SELECT id FROM runs WHERE kind = 'features' AND status = 'finished' AND id IN (SELECT run_id FROM params WHERE key = 'out' AND value_text = '$out')")
                if [[ "$done_state" == "file committed before the kill" ]]; then
                    # The documented outcome of a kill between the rename and the run's end: the
                    # file is complete and recorded (as an artifact of the killed, now failed, run).
                    art=$(sql "SELECT a.sha256 FROM artifacts a JOIN runs r ON r.id = a.run_id WHERE r.pid = $killed AND a.kind = 'features-hdf5'")
                    [[ -f "$out" && "$art" == "$(sha256sum <"$out" | cut -d' ' -f1)" ]] || fail "file committed before the kill but not recorded (artifact '$art')"
                    state+=", file committed before the kill"
                elif [[ $(wc -w <<<"$fin") != 1 ]]; then
                    fail "$(wc -w <<<"$fin") finished features runs for the file"
                else
                    d=$(diff <(features_view "$fin") "$work/ref-features.view") || fail "features run differs: $(tr '\n' ' ' <<<"$d")"
                    art=$(sql "SELECT sha256 FROM artifacts WHERE run_id = '$fin' AND kind = 'features-hdf5'")
                    [[ -f "$out" && "$art" == "$(sha256sum <"$out" | cut -d' ' -f1)" ]] || fail "features artifact sha256 '$art' is not the file's"
                fi
                ;;
            score)
                cmp -s "${out%.csv}.json" "$work/score/ref.json" || fail "JSON output differs: $(diff "${out%.csv}.json" "$work/score/ref.json" | head -3 | tr '\n' ' ')"
                cmp -s "$out" "$work/score/ref.csv" || fail "per-clip CSV differs"
                # A score killed after its run finished has recorded its work; the re-run (its exit
                # status was 137) records a second run: both must equal the reference's.
                fin=$(sql "SELECT id FROM runs WHERE kind = 'score' AND status = 'finished' AND rowid > $last_run")
                want=1; [[ "$status_at_kill" == *finished* ]] && want=2
                if [[ $(wc -w <<<"$fin") != "$want" ]]; then
                    fail "$(wc -w <<<"$fin") new finished score runs (expected $want)"
                fi
                for id in $fin; do
                    d=$(diff <(score_view "$id") "$work/ref-score.view") || fail "score rows of run $id differ: $(head -4 <<<"$d" | tr '\n' ' ')"
                done
                ;;
        esac
        if (( problems == 0 )); then matched[$kind]=$((matched[$kind] + 1)); else mismatched[$kind]=$((mismatched[$kind] + 1)); fi
        say "$kind $i/$kills: kill at ${delay}s: $state; $done_state after $attempt run(s); killed run: ${killed_status:-none}; $( ((problems == 0)) && echo match || echo MISMATCH)"
    done
done

# ---------------------------------------------------------------- whole catalogue
final_problems=()
crc=0
"$sekit" catalog check --catalog "$cat" --format csv >"$log/check-final.csv" 2>&1 || crc=$?
[[ $crc == 0 ]] || final_problems+=("final catalog check exited $crc: $(tail -n +2 "$log/check-final.csv" | head -3 | tr '\n' ' ')")
integrity=$(sql "PRAGMA integrity_check")
[[ "$integrity" == ok ]] || final_problems+=("integrity_check: $integrity")
sources_after=$(sql "SELECT count(*) FROM sources")
[[ $sources_after == "$sources_before" ]] || final_problems+=("sources grew from $sources_before to $sources_after (registered twice)")
runs_total=$(sql "SELECT count(*) FROM runs")
runs_summary=$(sql "SELECT kind || ':' || status || '=' || count(*) FROM runs GROUP BY kind, status" | tr '\n' ' ')

# ---------------------------------------------------------------- summary
echo "SEKit kill test: $kills SIGKILLs per command, seed $seed, $clips clips of 1 s, --jobs $jobs, one catalogue"
echo "wall times of a warm uninterrupted run: mix ${reftime[mix]} s, features ${reftime[features]} s, score ${reftime[score]} s (kill delays uniform in [0, that))"
printf '%-9s %6s %10s %11s %8s %11s %8s %11s %13s %14s\n' command kills delivered before-run mid-run after-finish \
    matched mismatches leftover-tmp running-after
for kind in mix features score; do
    printf '%-9s %6d %10d %11d %8d %11d %8d %11d %13d %14d\n' "$kind" "$kills" "${delivered[$kind]}" "${early[$kind]}" \
        "${midrun[$kind]}" "${late[$kind]}" "${matched[$kind]}" "${mismatched[$kind]}" "${leftovers[$kind]}" "${stillrunning[$kind]}"
done
echo "(delivered: the process was still alive; before-run: killed before it recorded its run; mid-run: while its run"
echo " was running; after-finish: after its run was finished, before it exited; the rest ended before the kill)"
echo "runs of killed processes: marked failed by catalog check / marked failed by the re-run / taken up again and finished by the resumed mix"
echo "  (catalog check runs between the kill and the re-run in odd cycles, after the re-run in even ones)"
for kind in mix features score; do
    echo "  $kind: ${bycheck[$kind]} / ${byrerun[$kind]} / ${reopened[$kind]}"
done
if (( ${#partial[@]} > 0 )); then
    sorted=($(printf '%s\n' "${partial[@]}" | sort -n))
    echo "mix clips on disk when killed: min ${sorted[0]}, median ${sorted[$(( ${#sorted[@]} / 2 ))]}, max ${sorted[-1]} of $clips"
fi
echo "extra re-runs needed: mix ${attempts_extra[mix]}, features ${attempts_extra[features]}, score ${attempts_extra[score]}"
echo "catalogue: $runs_total runs ($runs_summary), sources $sources_after (before the cycles: $sources_before), integrity $integrity, final catalog check exit $crc"
status=0
if (( ${#mismatches[@]} + ${#final_problems[@]} > 0 )); then
    echo "MISMATCHES:"
    printf '  %s\n' "${mismatches[@]}" "${final_problems[@]}" | grep -v '^  $'
    status=1
else
    echo "result: every cycle's final state equals the uninterrupted run's"
fi
exit $status
