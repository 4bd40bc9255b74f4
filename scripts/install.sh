#!/usr/bin/env bash
# Installs sekit under PREFIX: a release build copied to PREFIX/bin/sekit, and the Python
# environment of the metrics that run their reference implementation in Python (PESQ, the
# composite measures, DNSMOS) created under PREFIX/share/sekit/venv, where the installed binary
# looks for it (docs/installing.md). The Python worker is built into the binary.
#   scripts/install.sh PREFIX        e.g. /usr/local or ~/.local
# Environment: SEKIT_BIN (install this binary instead of building one), SEKIT_INSTALL_PYTHON=0
# (install the binary only; set SEKIT_PYTHON when running it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ $# -ne 1 || "$1" == -h || "$1" == --help ]]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 64
fi
mkdir -p "$1"
prefix="$(cd "$1" && pwd)"
cd "$root"
source scripts/setup.sh
binary="$(scripts/release-binary.sh)"
mkdir -p "$prefix/bin"
install -m 755 "$binary" "$prefix/bin/.sekit.tmp-$$"
mv -f "$prefix/bin/.sekit.tmp-$$" "$prefix/bin/sekit"
echo "install: $prefix/bin/sekit" >&2
if [[ "${SEKIT_INSTALL_PYTHON:-1}" != 0 ]]; then
    python="$(SEKIT_VENV="$prefix/share/sekit/venv" scripts/python-env.sh --requirements \
        "$root/Sources/SEKit/Resources/metric-worker-requirements.txt")"
    echo "install: Python environment $python" >&2
fi
echo "install: done; run $prefix/bin/sekit --help" >&2
