#!/usr/bin/env bash
# Times `sekit catalog clips --filter ... --format csv` on a catalogue of one million clips.
#
# The catalogue's schema and sources come from `sekit catalog import` (release build) of a few
# generated WAVs; the clips are inserted by scripts/bench/catalog_generate.py into that real schema.
# Usage: scripts/bench/catalog_filter.sh [CLIPS]   (default 1000000; needs python3 and /usr/bin/time)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
clips="${1:-1000000}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sekit-bench-catalog.XXXXXX")"
trap 'rm -rf "$work"' EXIT

swift build -c release --product sekit >&2
sekit="$(swift build -c release --show-bin-path)/sekit"
catalog="$work/catalog.sqlite"

python3 - "$work" <<'PY'
import math, os, struct, sys, wave
root = sys.argv[1]
for kind, count in (("speech", 40), ("noise", 10)):
    for i in range(count):
        folder = os.path.join(root, kind, f"spk{i % 8}" if kind == "speech" else "")
        os.makedirs(folder, exist_ok=True)
        with wave.open(os.path.join(folder, f"{kind}{i:03d}.wav"), "wb") as w:
            w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
            w.writeframes(b"".join(struct.pack("<h", int(3000 * math.sin(0.01 * (i + 1) * n))) for n in range(16000)))
PY
"$sekit" catalog import --catalog "$catalog" --kind speech --corpus bench-speech --speaker-pattern '(spk[0-9]+)/' "$work/speech" >&2
"$sekit" catalog import --catalog "$catalog" --kind noise --corpus bench-noise "$work/noise" >&2
start=$(date +%s.%N)
python3 scripts/bench/catalog_generate.py "$catalog" "$clips" 4 >&2
echo "generate: $(echo "$(date +%s.%N) - $start" | bc) s, catalogue $(du -h "$catalog" | cut -f1)" >&2
run="$(sqlite3 "$catalog" "SELECT id FROM runs WHERE kind = 'mix' ORDER BY id LIMIT 1")"

measure() {
    local label="$1"; shift
    local rows
    rows=$("$sekit" catalog clips --catalog "$catalog" "$@" --format csv | tail -n +2 | wc -l)
    /usr/bin/time -f "%e s wall, %M KiB max RSS" -o "$work/time" "$sekit" catalog clips --catalog "$catalog" "$@" --format csv > /dev/null
    printf '%-58s %8d rows  %s\n' "$label" "$rows" "$(cat "$work/time")"
}

echo "sekit catalog clips --format csv > /dev/null on $clips clips (release build):"
measure "(no filter)"
measure "split = 'test' and snr_realised_db >= 0 and < 5" --filter "split = 'test' and snr_realised_db >= 0 and snr_realised_db < 5"
measure "snr_realised_db >= 14.5 and snr_realised_db < 15.5" --filter "snr_realised_db >= 14.5 and snr_realised_db < 15.5"
measure "run = '<one shard>' and snr_requested_db = 15" --filter "run = '$run' and snr_requested_db = 15"
measure "split = 'valid'" --filter "split = 'valid'"
measure "params.shard = 2 and split = 'test'" --filter "params.shard = 2 and split = 'test'"
measure "speaker = 'spk3' and clipping_scale < 1" --filter "speaker = 'spk3' and clipping_scale < 1"
