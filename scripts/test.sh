#!/usr/bin/env bash
# Builds and runs SEKit's whole test suite: `swift test`, with the Python reference
# implementations (numpy, scipy, pystoi, h5py, librosa) available to the tests that compare
# against them. Sets itself up on a fresh machine (apt packages, Python venv under .build/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/setup.sh
SEKIT_PYTHON="$(scripts/python-env.sh)"
export SEKIT_PYTHON
echo "test: swift test (python reference: $SEKIT_PYTHON)" >&2
swift test "$@"
