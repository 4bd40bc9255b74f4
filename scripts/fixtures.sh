#!/usr/bin/env bash
# Prints the real-audio fixtures folder every script, test and benchmark reads: $SEKIT_FIXTURES, else
# the clone's datasets/fixtures (datasets/fixtures/SOURCES.md: origin and licence of each file).
# Checks that it holds every file datasets/fixtures/SHA256SUMS lists; when it does not, one error
# names the folder and the missing files, and the exit status is 1.
#   fixtures="$(scripts/fixtures.sh)"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
folder="${SEKIT_FIXTURES:-$root/datasets/fixtures}"
missing=()
while read -r _ name; do
    [[ -n "$name" && ! -f "$folder/${name#\*}" ]] && missing+=("${name#\*}")
done < "$root/datasets/fixtures/SHA256SUMS"
if ((${#missing[@]})); then
    echo "fixtures: $folder lacks ${#missing[@]} of its files: ${missing[*]:0:8}$( ((${#missing[@]} > 8)) && echo " and more")" \
         "(SEKIT_FIXTURES=${SEKIT_FIXTURES:-unset}; datasets/fixtures/SHA256SUMS lists them)" >&2
    exit 1
fi
(cd "$folder" && pwd)
