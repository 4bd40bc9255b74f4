#!/usr/bin/env bash
# Output failures that a script can repeat (issue 26's audit): every command that prints records,
# with its standard output on a full device (/dev/full) and on a pipe closed by its reader (with
# SIGPIPE ignored, as some launchers leave it), and an enhance output folder reused for another
# method. Checks that a full device is an error on stderr and exit 1 (never a crash, never a silent
# exit 0), that a closed pipe ends quietly (exit 141, nothing on stderr), and that a reused enhance
# folder is refused with its files untouched unless --overwrite.
#   scripts/stress/outputs.sh            (SEKIT: the binary to test; default: a release build)
# Prints one line per case and a summary `cases passed failed`; exit 1 when a case fails.
set -euo pipefail
source "$(dirname "$0")/common.sh"
stress_init outputs sqlite3 sha256sum
passed=0; failed=0
ok() { passed=$((passed + 1)); echo "ok     $*"; }
bad() { failed=$((failed + 1)); echo "FAILED $*"; }

# A small catalogued corpus, a score run and an enhance run to list.
"$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise/running_tap.wav" --count 6 --seconds 1 \
    --snr-db 0,5 --seed 2 --out "$work/corpus" --catalog "$cat" >"$log/mix.out" 2>&1
"$sekit" score --corpus "$work/corpus" --checkpoint noisy --catalog "$cat" >"$log/score.out" 2>&1
"$sekit" enhance --method oracle-irm --corpus "$work/corpus" --out "$work/irm" --catalog "$cat" >"$log/enhance.out" 2>&1
"$sekit" score --corpus "$work/corpus" --enhanced "$work/irm" --checkpoint irm --catalog "$cat" >"$log/score-irm.out" 2>&1
wav="$(ls "$work/corpus/noisy" | head -1)"
noisy="$(sql "SELECT id FROM runs WHERE name = 'noisy'")"

commands=(
    "runs list"
    "runs list --format csv"
    "runs list --format json"
    "runs show $noisy"
    "runs export"
    "runs export --per-clip"
    "runs leaderboard --corpus corpus"
    "runs best --metric stoi"
    "catalog stats"
    "catalog clips"
    "catalog clips --format json"
    "catalog check --dry-run"
    "info $work/corpus/noisy/$wav"
    "info $work/corpus/noisy/$wav --format json"
    "score --from-run $noisy"
    "score --from-run $noisy --format csv"
    "--help"
    "mix --help"
)
for command in "${commands[@]}"; do
    read -r -a arguments <<<"$command"
    case "${arguments[0]}" in runs|catalog|score) arguments+=(--catalog "$cat") ;; esac
    # A full device: an error naming standard output, exit 1.
    status=0
    "$sekit" "${arguments[@]}" >/dev/full 2>"$log/full.err" || status=$?
    if [[ $status -eq 1 ]] && grep -q "cannot write to standard output" "$log/full.err"; then
        ok "full device: sekit $command (exit 1)"
    else
        bad "full device: sekit $command: exit $status, stderr: $(head -c 300 "$log/full.err")"
    fi
    # A pipe its reader closed at once, SIGPIPE ignored: a quiet exit 141.
    ( trap '' PIPE; status=0; "$sekit" "${arguments[@]}" 2>"$log/pipe.err" || status=$?; echo $status >"$log/pipe.status" ) | head -c 0
    status="$(cat "$log/pipe.status")"
    if [[ "$status" == 141 || "$status" == 0 ]] && [[ ! -s "$log/pipe.err" ]]; then
        ok "closed pipe: sekit $command (exit $status)"
    else
        bad "closed pipe: sekit $command: exit $status, stderr: $(head -c 300 "$log/pipe.err")"
    fi
done

# An enhance folder reused for another method: refused, nothing touched; --overwrite replaces it.
before="$(cd "$work/irm" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)"
status=0
"$sekit" enhance --method wiener --corpus "$work/corpus" --out "$work/irm" --catalog "$cat" >"$log/reuse.out" 2>&1 || status=$?
after="$(cd "$work/irm" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)"
if [[ $status -ne 0 && "$before" == "$after" ]]; then ok "enhance folder reuse refused, files unchanged (exit $status)"
else bad "enhance folder reuse: exit $status, files changed: $([[ "$before" != "$after" ]] && echo yes || echo no)"; fi
status=0
"$sekit" enhance --method wiener --corpus "$work/corpus" --out "$work/irm" --overwrite --catalog "$cat" >"$log/overwrite.out" 2>&1 || status=$?
if [[ $status -eq 0 ]] && grep -q '"wiener"\|wiener' "$work/irm/.sekit-enhance-folder.json"; then ok "enhance --overwrite replaces the folder"
else bad "enhance --overwrite: exit $status"; fi

echo "cases passed failed"
echo "$((passed + failed)) $passed $failed"
[[ $failed -eq 0 ]]
