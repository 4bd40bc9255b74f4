#!/usr/bin/env bash
# Times logging 10,000 steps of 5 metrics into one run (issue 27: under 5 s): through
# `sekit runs log RUN --jsonl FILE`, through `sekit.tracking` (one `runs log --jsonl - --acknowledge`
# process fed line by line), and one `sekit runs log RUN --step N --metric ...` process per step
# (the first 200 steps, to show why a stream is needed). Each result is checked: 50,000 rows.
# Usage: scripts/bench/tracking.sh [STEPS]   (default 10000; SEKIT=path times another binary, e.g.
# the debug build; SEKIT_PYTHON the interpreter, default python3)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
steps="${1:-10000}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sekit-bench-tracking.XXXXXX")"
trap 'rm -rf "$work"' EXIT
python="${SEKIT_PYTHON:-python3}"
runs=1
source scripts/bench/lib.sh
sekit="$(release_sekit)"
catalog="$work/catalog.sqlite"
export SEKIT_CATALOG="$catalog"

"$python" - "$work/steps.jsonl" "$steps" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for step in range(int(sys.argv[2])):
        metrics = {"loss": 1 / (step + 1), "valid_stoi": 0.5, "valid_pesq": 2.5, "lr": 1e-3, "grad_norm": step % 7}
        f.write(json.dumps({"step": step, "metrics": metrics}) + "\n")
PY

rows() { "$python" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM run_step_metrics WHERE run_id = ?", [sys.argv[2]]).fetchone()[0])' "$catalog" "$1"; }

run=$("$sekit" runs start --name bench-jsonl --pid $$)
read -r wall cpu _ < <(timed jsonl "$sekit" runs log "$run" --jsonl "$work/steps.jsonl")
printf '%-58s %6.2f s wall, %6.2f s CPU, %s rows\n' "runs log --jsonl FILE ($steps steps x 5 metrics)" "$wall" "$cpu" "$(rows "$run")"

cat > "$work/track.py" <<'PY'
import sys, time, sekit.tracking
steps = int(sys.argv[1])
started = time.perf_counter()
with sekit.tracking.start_run(name="bench-python") as run:
    for step in range(steps):
        run.log_metrics({"loss": 1 / (step + 1), "valid_stoi": 0.5, "valid_pesq": 2.5, "lr": 1e-3, "grad_norm": step % 7}, step=step)
print(run.id, time.perf_counter() - started)
PY
read -r run seconds < <(SEKIT_BINARY="$sekit" PYTHONPATH="$root/experiments/python" "$python" "$work/track.py" "$steps")
printf '%-58s %6.2f s wall (start to finish), %s rows\n' "sekit.tracking log_metrics ($steps steps x 5 metrics)" "$seconds" "$(rows "$run")"

single=200
run=$("$sekit" runs start --name bench-single --pid $$)
started=$(date +%s.%N)
for step in $(seq 0 $((single - 1))); do
    "$sekit" runs log "$run" --step "$step" --metric loss=0.5 --metric valid_stoi=0.5 --metric valid_pesq=2.5 \
        --metric lr=0.001 --metric grad_norm=1 >/dev/null
done
elapsed=$(echo "$(date +%s.%N) - $started" | bc)
printf '%-58s %6.2f s wall, %.1f ms a step (%s steps would take %.0f s)\n' "runs log --step N --metric ... (one process a step)" \
    "$elapsed" "$(echo "$elapsed * 1000 / $single" | bc -l)" "$steps" "$(echo "$elapsed * $steps / $single" | bc -l)"
