#!/usr/bin/env bash
# Times `sekit runs diff`, `runs leaderboard` and `runs best` on a catalogue of 20 score runs x
# 10,000 clips x 5 metrics (issue 13: each answers in under a second).
#
# The schema and sources come from `sekit catalog import` (release build); the mix run and its clips
# from scripts/bench/catalog_generate.py, the score runs from scripts/bench/score_runs_generate.py.
# Usage: scripts/bench/runs_compare.sh [CLIPS] [RUNS]   (default 10000 20; needs python3, /usr/bin/time)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
clips="${1:-10000}"
runs="${2:-20}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sekit-bench-runs.XXXXXX")"
trap 'rm -rf "$work"' EXIT

swift build -c release --product sekit >&2
sekit="$(swift build -c release --show-bin-path)/sekit"
catalog="$work/catalog.sqlite"
python="${SEKIT_PYTHON:-python3}"

mkdir -p "$work/speech/spk0" "$work/noise"
"$python" - "$work" <<'PY'
import math, struct, sys, wave
for kind in ("speech/spk0", "noise"):
    with wave.open(f"{sys.argv[1]}/{kind}/a.wav", "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
        w.writeframes(b"".join(struct.pack("<h", int(3000 * math.sin(0.01 * n))) for n in range(16000)))
PY
"$sekit" catalog import --catalog "$catalog" --kind speech --corpus bench-speech "$work/speech" >&2
"$sekit" catalog import --catalog "$catalog" --kind noise --corpus bench-noise "$work/noise" >&2
"$python" scripts/bench/catalog_generate.py "$catalog" "$clips" 1 >&2
"$python" scripts/bench/score_runs_generate.py "$catalog" "$runs" >&2
echo "catalogue: $(du -h "$catalog" | cut -f1)" >&2

measure() {
    local label="$1"; shift
    /usr/bin/time -f "%e s wall, %U s user, %M KiB max RSS" -o "$work/time" "$sekit" "$@" --catalog "$catalog" > "$work/out"
    printf '%-62s %s\n' "$label" "$(cat "$work/time")"
}

echo "$runs score runs x $clips clips x 5 metrics (release build):"
measure "runs diff ckpt-00 ckpt-19 (all subsets, 10000 resamples)" runs diff ckpt-00 "ckpt-$(printf %02d $((runs - 1)))"
measure "runs diff ckpt-00 ckpt-19 --subset all" runs diff ckpt-00 "ckpt-$(printf %02d $((runs - 1)))" --subset all
measure "runs diff ckpt-00 ckpt-19 --unpaired --subset all" runs diff ckpt-00 "ckpt-$(printf %02d $((runs - 1)))" --unpaired --subset all
measure "runs leaderboard --corpus <mix> --format latex" runs leaderboard --corpus "$(sqlite3 "$catalog" "SELECT id FROM runs WHERE kind = 'mix'")" --format latex
measure "runs best --metric stoi --subset snr=0" runs best --metric stoi --subset snr=0
measure "runs list --kind score --order-by 'metrics.stoi.mean desc'" runs list --kind score --order-by "metrics.stoi.mean desc"
measure "runs export --per-clip --format csv" runs export --per-clip --format csv
