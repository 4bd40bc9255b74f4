#!/usr/bin/env bash
# Creates (once) the Python virtual environment used by interoperability tests and
# benchmarks, and by the metrics that run their reference implementation in Python (`pesq` 0.0.4
# for PESQ and the composite measures, `speechmos` 0.0.1.1 with onnxruntime for DNSMOS): the
# packages of scripts/requirements.txt.
# Location: $SEKIT_VENV, default .build/venv. Prints the interpreter path on stdout.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${SEKIT_VENV:-$root/.build/venv}"
requirements="$root/scripts/requirements.txt"
stamp="$venv/.sekit-requirements"
if [[ ! -x "$venv/bin/python" ]]; then
    echo "python-env: creating $venv" >&2
    python3 -m venv "$venv"
fi
if ! cmp -s "$requirements" "$stamp" 2>/dev/null; then
    echo "python-env: installing $(tr '\n' ' ' < "$requirements")" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
    cp "$requirements" "$stamp"
fi
echo "$venv/bin/python"
