#!/usr/bin/env bash
# The hostile-input cases of issue 40 (round-3 hardening) that a script can repeat through the
# command line: usage errors, edited and broken manifests, SNR subsets of a small continuous draw,
# split promises, run listings, lineage fields, broken archive shards, lock files, listening-test
# draws and pages, the report's best method, speaker patterns and native rates. (The model cases,
# which need ONNX files made in Python, are Swift tests: Tests/sekitTests/EnhanceModel*.)
#
# Each case says what a failure would be: a crash (killed by a signal other than SIGPIPE), a result
# that is silently wrong, or a message a user cannot act on. Any case that exits by a signal counts
# as a crash whatever it checks.
#   scripts/stress/hostile-inputs.sh       (SEKIT: the binary to test; default: a release build)
# Prints one line per case, a summary `cases passed failed` and the failures by class
# `crashes silently_wrong unclear`; exit 1 when a case fails.
set -euo pipefail
source "$(dirname "$0")/common.sh"
stress_init hostile-inputs sqlite3 python3 tar
passed=0; failed=0; crashes=0; silent=0; unclear=0
status=0
# run ARGS...: runs sekit with stdout and stderr in $log/out and $log/err; the exit status in $status.
run() { status=0; "$sekit" "$@" >"$log/out" 2>"$log/err" || status=$?; }
# check CLASS NAME CONDITION: counts the case; CLASS is crash, silent or unclear (what a failure is).
check() {
    local class="$1" name="$2"; shift 2
    if (( status >= 128 && status != 141 )); then
        failed=$((failed + 1)); crashes=$((crashes + 1))
        echo "FAILED [crash] $name: exit $status: $(head -c 300 "$log/err")"
    elif eval "$@"; then
        passed=$((passed + 1)); echo "ok     $name"
    else
        failed=$((failed + 1))
        case "$class" in silent) silent=$((silent + 1)) ;; unclear) unclear=$((unclear + 1)) ;; *) crashes=$((crashes + 1)) ;; esac
        echo "FAILED [$class] $name: exit $status: $(head -c 300 "$log/err")"
    fi
}
has() { grep -qF -- "$1" "$log/err" "$log/out"; }

speech="$fixtures/speech"; noise="$fixtures/noise/running_tap.wav"
mix() { run mix --speech "$speech" --noise "$noise" --seconds 1 --catalog "$cat" "$@"; }

# --- Usage errors: exit 64 naming the flag (README: "64 for usage errors"). ---
run noise --seconds 0.00001 "$work/n.wav"
check silent "noise --seconds 0.00001: exit 64, no 0-sample file" '[[ $status == 64 && ! -e $work/n.wav ]] && has "--seconds"'
mix --count 2 --snr-db abc --out "$work/x"
check unclear "mix --snr-db abc: exit 64 naming --snr-db" '[[ $status == 64 ]] && has "--snr-db abc"'
mix --count 0 --out "$work/x"
check unclear "mix --count 0: exit 64 naming --count" '[[ $status == 64 ]] && has "--count"'

# --- A small continuous draw: 5 dB bands, recorded with the corpus (item 5). ---
mix --count 6 --snr-db -5:10 --seed 3 --out "$work/range"
check silent "mix of a range: mix.json records 5 dB bands" \
    '[[ $status == 0 ]] && grep -q "\"snr_subsets\" *: *\"5db-bands\"" "$work/range/mix.json"'
run score --corpus "$work/range" --metrics snr,segsnr --checkpoint noisy --catalog "$cat"
one_clip="$(sql "SELECT count(*) FROM run_metrics m JOIN runs r ON r.id = m.run_id WHERE r.name = 'noisy' AND m.subset LIKE 'snr=%' AND m.subset NOT LIKE 'snr=[%'")"
check silent "score of a 6-clip range: banded subsets, no one-clip snr=X" '[[ $status == 0 && $one_clip == 0 ]]'
run runs best --metric snr --subset snr=0 --corpus range --catalog "$cat"
check silent "runs best --subset snr=0 names its band" '[[ $status == 0 ]] && has "snr=[0,5)"'

# --- runs show, lineage fields, lock files (item 18). ---
run runs show noisy --catalog "$cat"
check silent "runs show counts the clips a score run scored" '[[ $status == 0 ]] && has "clips scored: 6"'
run runs list --filter "kind = 'score' and lineage.mix.seed = 3" --format csv --catalog "$cat"
check silent "lineage.mix.seed finds the score run of the mix with seed 3" '[[ $status == 0 && $(grep -c ",noisy," "$log/out") == 1 ]]'
run runs list --filter "kind =" --catalog "$cat"
check unclear "runs list --filter 'kind =': exit 64 with the column" '[[ $status == 64 ]] && has "column"'
run runs list --filter "lineage.mixes.seed = 3" --catalog "$cat"
check unclear "lineage.mixes.seed: exit 64 naming the run kinds" '[[ $status == 64 ]] && has "lineage.KIND.KEY"'
run enhance --method wiener --corpus "$work/range" --out "$work/wiener" --catalog "$cat"
run score --corpus "$work/range" --enhanced "$work/wiener" --metrics snr,segsnr --checkpoint wiener \
    --per-clip "$work/wiener.csv" --catalog "$cat"
locks="$(find "$work" -name '*.lock' -not -path "$log/*" | wc -l)"
check silent "no .lock files left beside outputs after clean exits" '[[ $status == 0 && $locks == 0 ]]'

# --- Split promises (item 16). ---
mix --count 8 --split train=0.5,test=0.5 --split-sources speech --out "$work/shared"
run catalog check --catalog "$cat"
check silent "catalog check accepts noise shared across splits by --split-sources speech" \
    '[[ $status == 0 ]] && ! has "split leak"'

# --- Re-rendering edited manifests (items 10 and 22). ---
mix --count 4 --snr-db 0,5 --out "$work/base"
mkdir -p "$work/edits" && cp "$work/base/mix.json" "$work/edits/"
edit() {  # edit NAME PYTHON: a copy of base's manifest (beside its mix.json) with its first record changed by PYTHON (r)
    python3 - "$work/base/manifest.jsonl" "$work/edits/$1.jsonl" "$2" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
r = json.loads(lines[0]); exec(sys.argv[3]); lines[0] = json.dumps(r)
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
}
edit samples 'r["num_samples"] = 5'
run mix --from-manifest "$work/edits/samples.jsonl" --out "$work/samples" --no-catalog
check silent "--from-manifest with num_samples edited to 5: refused, naming the clip" \
    '[[ $status != 0 && ! -e $work/samples/manifest.jsonl ]] && has "clip of 5 samples"'
edit length 'r["speech_sources"][0]["length"] = 10**9'
run mix --from-manifest "$work/edits/length.jsonl" --out "$work/length" --no-catalog
check silent "--from-manifest with speech_sources[].length past the clip: refused by name" '[[ $status != 0 ]] && has "length"'
{ head -1 "$work/base/manifest.jsonl"; echo "this is not json"; } >"$work/edits/garbage.jsonl"
run mix --from-manifest "$work/edits/garbage.jsonl" --out "$work/garbage" --no-catalog
check unclear "--from-manifest with a garbage line: names the line, no --overwrite remedy" \
    '[[ $status != 0 ]] && has "line 2" && ! has "--overwrite"'

# --- Archive shards (item 7). ---
mix --count 6 --archive tar --archive-clips 2 --out "$work/tars" --no-catalog
cp "$work/tars/shard-000000.tar" "$work/dup.tar"
first="$(tar -tf "$work/dup.tar" | sed -n 1p)"
(cd "$work" && mkdir -p dupdir && tar -xf dup.tar -C dupdir "$first" && tar -rf "$work/tars/shard-000000.tar" -C dupdir "$first")
run score --corpus "$work/tars" --metrics snr --no-catalog
check silent "a shard with a member twice: refused naming the member" '[[ $status != 0 ]] && has "$first"'
cp "$work/dup.tar" "$work/tars/shard-000000.tar"
cp "$work/tars/shard-000000.tar" "$work/tars/shard-000001.tar"
run score --corpus "$work/tars" --metrics snr --no-catalog
check silent "a shard copied into another position: refused naming the shard" '[[ $status != 0 ]] && has "shard-000001.tar"'

# --- Listening tests (items 4 and 6). ---
run enhance --method specsub --corpus "$work/range" --out "$work/specsub" --catalog "$cat"
hostile='<!--<script>"é'
run score --corpus "$work/range" --enhanced "$work/specsub" --metrics snr --checkpoint "$hostile" --catalog "$cat"
draws=()
for seed in 0 7 99; do
    run listen make --runs "wiener,$hostile" --test acr --clips 3 --seed "$seed" --out "$work/listen-$seed" --catalog "$cat"
    [[ $status == 0 ]] || { draws+=("failed"); continue; }
    draws+=("$(python3 -c 'import json,sys; print(",".join(sorted(t["clip"] for t in json.load(open(sys.argv[1]))["trials"] if t["role"] == "test")))' \
        "$work/listen-$seed/test.json" 2>/dev/null || echo "?$seed")")
done
distinct="$(printf '%s\n' "${draws[@]}" | sort -u | wc -l)"
check silent "listen make: seeds 0, 7 and 99 draw different clips of a small continuous test set" \
    '[[ $distinct -ge 2 && " ${draws[*]} " != *" failed "* ]]'
check silent "a run name with <!--<script> cannot break the test page's script" \
    '[[ -s $work/listen-0/index.html ]] && python3 - "$work/listen-0/index.html" <<'"'"'PY'"'"'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
scripts = re.findall(r"<script[^>]*>(.*?)</script>", page, re.S)
sys.exit(0 if scripts and not any("<!--" in s or "<script" in s.lower() for s in scripts) else 1)
PY'

# --- The report names a method, not the noisy input (item 3). ---
run report noisy wiener --out "$work/report.html" --catalog "$cat"
check silent "the report's best method is not the noisy input" \
    '[[ $status == 0 ]] && ! grep -q "Best by the lowest mean rank: noisy" "$work/report.html"'

# --- One speaker pattern for mix and import (item 15). ---
mkdir -p "$work/spk/a" "$work/spk/b"
for f in $(ls "$speech" | sed -n 1,4p); do cp "$speech/$f" "$work/spk/$([[ $f == *aew* || $f == arctic_a0007.wav ]] && echo a || echo b)/"; done
run mix --speech "$work/spk" --noise "$noise" --count 4 --seconds 1 --speaker-pattern '^([^/]+)/' --out "$work/spk-mix" --no-catalog
speakers="$(grep -o '"speaker":"[^"]*"' "$work/spk-mix/manifest.jsonl" | sort -u | wc -l)"
check silent "--speaker-pattern '^([^/]+)/' matches the path relative to the folder in mix" '[[ $status == 0 && $speakers -ge 1 ]]'
run catalog import --kind speech --corpus spk --speaker-pattern '^([^/]+)/' "$work/spk" --catalog "$cat"
check silent "... and in catalog import" '[[ $status == 0 && $(sql "SELECT count(DISTINCT speaker) FROM sources WHERE corpus = '"'"'spk'"'"'") == 2 ]]'

# --- Native rates (item 11). ---
mix --count 4 --sample-rate native --out "$work/native"
rates_ok="$(python3 - "$work/native" <<'PY'
import json, sys
spec = json.load(open(sys.argv[1] + "/mix.json"))
clips = {json.loads(l)["sample_rate"] for l in open(sys.argv[1] + "/manifest.jsonl") if l.strip()}
print(int(set(spec.get("sample_rates", [])) == clips))
PY
)"
check silent "--sample-rate native: mix.json lists exactly the clips' rates" '[[ $status == 0 && $rates_ok == 1 ]]'

echo "cases passed failed"
echo "$((passed + failed)) $passed $failed"
echo "crashes silently_wrong unclear"
echo "$crashes $silent $unclear"
[[ $failed -eq 0 ]]
