#!/usr/bin/env bash
# Times `sekit listen import` + `listen show` + `listen correlate` on 30 raters x 20 conditions x 50
# clips (issue 30: importing them and computing every statistic and correlation in under 2 s).
#
# The catalogue comes from `sekit catalog import` (release build), 20 finished score runs of 50 clips
# x 3 metrics are inserted with sqlite3, the test folder (test.json, one small WAV) and 30 results
# files are written by Python, as `sekit listen make` and its page would write them.
# Usage: scripts/bench/listen.sh [RATERS] [CONDITIONS] [CLIPS]   (default 30 20 50; needs python3)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
raters="${1:-30}"
conditions="${2:-20}"
clips="${3:-50}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sekit-bench-listen.XXXXXX")"
trap 'rm -rf "$work"' EXIT

swift build -c release --product sekit >&2
sekit="$(swift build -c release --show-bin-path)/sekit"
catalog="$work/catalog.sqlite"
mkdir -p "$work/speech" "$work/test/audio" "$work/results"
python3 - "$work" <<'PY'
import math, struct, sys, wave
for path in (f"{sys.argv[1]}/speech/a.wav", f"{sys.argv[1]}/test/audio/a.wav"):
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
        w.writeframes(b"".join(struct.pack("<h", int(3000 * math.sin(0.01 * n))) for n in range(1600)))
PY
"$sekit" catalog import --catalog "$catalog" --kind speech --corpus bench "$work/speech" >/dev/null
python3 - "$work" "$raters" "$conditions" "$clips" <<'PY'
import hashlib, json, sqlite3, sys
work, raters, conditions, clips = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
db = sqlite3.connect(f"{work}/catalog.sqlite")
runs = []
for c in range(conditions):
    rid = f"00000000-0000-4000-8000-{c:012d}"
    runs.append({"name": f"system-{c:02d}", "id": rid})
    db.execute("INSERT INTO runs (id, kind, name, status, started_at, finished_at, tool_version, command_line,"
               " working_directory, host, pid) VALUES (?, 'score', ?, 'finished', '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', 'bench', 'bench', '/', 'h', 1)",
               (rid, f"system-{c:02d}"))
    db.execute("INSERT INTO params (run_id, key, value_text) VALUES (?, 'metrics', 'stoi,sisdr,pesq_wb')", (rid,))
    for k in range(clips):
        for m, metric in enumerate(["stoi", "sisdr", "pesq_wb"]):
            db.execute("INSERT INTO clip_scores (run_id, clip_id, metric, value) VALUES (?, ?, ?, ?)",
                       (rid, f"clip-{k:03d}", metric, c * 0.1 + ((k * 7 + m) % 11) * 0.01))
db.commit()
sha = hashlib.sha256(open(f"{work}/test/audio/a.wav", "rb").read()).hexdigest()
trials = [{"id": f"clip-{k:03d}", "clip": f"clip-{k:03d}", "role": "test", "snrDB": float(k % 3 * 5 - 5),
           "stimuli": [{"id": f"clip-{k:03d}/{r['name']}", "condition": r["name"], "file": "audio/a.wav", "sha256": sha} for r in runs]}
          for k in range(clips)]
text = "sekit-listening-test 1 mushra\n"
for t in trials:
    text += f"trial\t{t['id']}\ttest\t\t\n" + "".join(f"{s['id']}\t{s['condition']}\t{s['file']}\t{s['sha256']}\n" for s in t["stimuli"])
stimuli_hash = hashlib.sha256(text.encode()).hexdigest()
manifest = {"format": "sekit-listening-test", "version": 1, "name": "bench", "test": "mushra", "seed": 1, "runs": runs,
            "conditions": [r["name"] for r in runs], "scales": ["mushra"], "scoreMin": 0, "scoreMax": 100, "trials": trials,
            "stimuliHash": stimuli_hash}
json.dump(manifest, open(f"{work}/test/test.json", "w"))
for r in range(raters):
    ratings = [{"trial": t["id"], "stimulus": s["id"], "condition": s["condition"], "file": s["file"], "scale": "mushra",
                "score": min(100, int(s["condition"][-2:]) * 4 + (r * 13 + k * 7) % 21), "seconds": 2.0}
               for k, t in enumerate(trials) for s in t["stimuli"]]
    json.dump({"format": "sekit-listening-results", "version": 1, "test": "bench", "kind": "mushra", "stimuliHash": stimuli_hash,
               "rater": f"rater-{r:02d}", "ratings": ratings}, open(f"{work}/results/results-{r:02d}.json", "w"))
PY
start=$(date +%s.%N)
"$sekit" listen import --test "$work/test" "$work"/results/*.json --catalog "$catalog" >/dev/null 2>&1
imported=$(date +%s.%N)
"$sekit" listen show --format json --catalog "$catalog" >/dev/null
shown=$(date +%s.%N)
"$sekit" listen correlate --format json --catalog "$catalog" > "$work/correlate.json"
end=$(date +%s.%N)
python3 - "$start" "$imported" "$shown" "$end" "$raters" "$conditions" "$clips" <<'PY'
import sys
s, i, sh, e = map(float, sys.argv[1:5])
print(f"{sys.argv[5]} raters x {sys.argv[6]} conditions x {sys.argv[7]} clips: import {i - s:.3f} s, show {sh - i:.3f} s, "
      f"correlate {e - sh:.3f} s, total {e - s:.3f} s")
PY
