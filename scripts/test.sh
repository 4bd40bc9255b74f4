#!/usr/bin/env bash
# Builds and runs SEKit's whole test suite: `swift test`, with the Python reference
# implementations (numpy, scipy, pystoi, h5py, librosa) available to the tests that compare
# against them, then the Python package's tests (experiments/python/tests, unittest, against the
# debug build's sekit). Sets itself up on a fresh machine (apt packages, Python venv under .build/).
# Then the DocC catalog (scripts/docs.sh: offline, links checked), and, when SEKIT_SLURM_TESTS=1,
# or under CI (CI=true) unless SEKIT_SLURM_TESTS=0, the Slurm
# integration test scripts/test-slurm.sh (a real single-node Slurm cluster; needs root).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/setup.sh
# The project's environment (.build/venv: what sekit needs at run time; the demo's, which
# DemoScriptTests runs), and the training environment (the same packages plus PyTorch, onnx and
# what needs them: made once per machine, shared by every clone). The tests run against the
# training environment, a superset, so every Python-backed metric and client is there.
SEKIT_PROJECT_PYTHON="$(scripts/python-env.sh)"
SEKIT_TRAIN_PYTHON="$(scripts/python-env.sh --train)"
SEKIT_PYTHON="$SEKIT_TRAIN_PYTHON"
export SEKIT_PROJECT_PYTHON SEKIT_TRAIN_PYTHON SEKIT_PYTHON
echo "test: swift test (python reference: $SEKIT_PYTHON; the project's environment: $SEKIT_PROJECT_PYTHON)" >&2
swift test "$@"
# The `sekit` Python package (experiments/python) against the real binary, in the training
# environment (its packages and PyTorch; the clone's package first on PYTHONPATH, as the training
# environment holds none). Without h5py they are not run, except under CI, where they fail.
swift build --product sekit
if [[ "${CI:-}" == true ]] || "$SEKIT_TRAIN_PYTHON" -c "import h5py, numpy" 2>/dev/null; then
    echo "test: Python package tests (experiments/python/tests)" >&2
    SEKIT_BINARY="$(swift build --show-bin-path)/sekit" PYTHONPATH="$root/experiments/python${PYTHONPATH:+:$PYTHONPATH}" \
        "$SEKIT_TRAIN_PYTHON" -m unittest discover -s experiments/python/tests -t experiments/python -v
else
    echo "test: Python package tests not run: $SEKIT_TRAIN_PYTHON cannot import h5py and numpy (under CI=true they run and fail)" >&2
fi
# The Swift API documentation (Sources/SEKit/SEKit.docc) builds offline, every symbol link resolving.
scripts/docs.sh

slurm="${SEKIT_SLURM_TESTS:-}"
if [[ "$slurm" == 1 || ( "${CI:-}" == true && "$slurm" != 0 ) ]]; then
    echo "test: scripts/test-slurm.sh (SEKIT_SLURM_TESTS=${slurm:-unset}, CI=${CI:-unset})" >&2
    scripts/test-slurm.sh
else
    echo "test: Slurm integration test not run (SEKIT_SLURM_TESTS=1 runs it; it runs under CI=true unless SEKIT_SLURM_TESTS=0)" >&2
fi
