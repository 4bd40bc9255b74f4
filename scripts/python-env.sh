#!/usr/bin/env bash
# Creates (once) the Python virtual environment used by interoperability tests and
# benchmarks, and by the metrics that run their reference implementation in Python (`pesq` 0.0.4
# for PESQ and the composite measures, `speechmos` 0.0.1.1 with onnxruntime for DNSMOS): the
# packages of scripts/requirements.txt (which includes the metric worker's own list,
# Sources/SEKit/Resources/metric-worker-requirements.txt).
# Location: $SEKIT_VENV, default .build/venv. Prints the interpreter path on stdout.
#   scripts/python-env.sh [--requirements FILE]   (another list: scripts/install.sh installs the worker's only)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${SEKIT_VENV:-$root/.build/venv}"
requirements="$root/scripts/requirements.txt"
if [[ "${1:-}" == --requirements ]]; then
    requirements="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
fi
stamp="$venv/.sekit-requirements"
# What the environment must hold: the list and every list it includes (-r FILE, relative to it).
wanted() {
    local file="$1" line
    cat "$file"
    while read -r line; do
        [[ "$line" == "-r "* ]] && wanted "$(dirname "$file")/${line#-r }"
    done < "$file"
    return 0
}
if [[ ! -x "$venv/bin/python" ]]; then
    echo "python-env: creating $venv" >&2
    python3 -m venv "$venv"
fi
if ! cmp -s <(wanted "$requirements") "$stamp" 2>/dev/null; then
    echo "python-env: installing $(wanted "$requirements" | grep -v -e '^-r ' -e '^#' | tr '\n' ' ')" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
    wanted "$requirements" > "$stamp.tmp" && mv "$stamp.tmp" "$stamp"
fi
echo "$venv/bin/python"
