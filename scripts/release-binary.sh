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
echo "== building sekit (release)" >&2
swift build -c release --product sekit >&2
echo "$(swift build -c release --show-bin-path)/sekit"
