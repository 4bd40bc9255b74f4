#!/usr/bin/env bash
# Prints the path of the sekit binary the scripts use: $SEKIT_BIN when set, else a release build
# made here (`swift build -c release --product sekit`, incremental; its output goes to stderr).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ -n "${SEKIT_BIN:-}" ]]; then
    echo "$SEKIT_BIN"
    exit 0
fi
cd "$root"
source scripts/setup.sh
bin="$(swift build -c release --show-bin-path)"
if [[ -x "$bin/sekit" ]]; then
    echo "== building sekit (release, incremental: seconds when nothing changed)" >&2
else
    echo "== building sekit (release): the first build compiles SEKit and its packages, 3-10 minutes on a 2-core" \
         "machine, later ones are incremental (compiler warnings may scroll past; they are not errors)" >&2
fi
started=$SECONDS
swift build -c release --product sekit >&2
echo "== built $bin/sekit in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s" >&2
echo "$bin/sekit"
