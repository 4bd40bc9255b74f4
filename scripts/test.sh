#!/usr/bin/env bash
# Builds and runs SEKit's whole test suite: `swift test`, with the Python reference
# implementations (numpy, scipy, pystoi, h5py, librosa) available to the tests that compare
# against them, then the Python package's tests (experiments/python/tests, unittest, against the
# debug build's sekit), the DocC catalog (scripts/docs.sh: offline, links checked) and the Slurm
# integration test scripts/test-slurm.sh (a real single-node Slurm cluster; needs root;
# SEKIT_SLURM_TESTS=0 leaves it out). Sets itself up on a fresh machine (apt packages, Python venv
# under .build/, the training environment once per machine).
#
# The fixtures ship with the clone (datasets/fixtures; SEKIT_FIXTURES names another folder, which
# scripts/fixtures.sh checks first). The reference tier (recordings kept outside the repository for
# their licence, with published metric values) is read from SEKIT_REFERENCE_AUDIO, set here to
# ../shared/fixtures/metrics beside the clone when that folder exists (as on CI); without it those
# tests are skipped and counted. Under CI=true every test must run: a skip for any reason not listed
# in scripts/test-support/allowed-skips.txt fails the run.
#
# It ends with a count: tests run, passed, failed and skipped (Swift, Python, the scripts), and each
# skip reason with its count (scripts/test-support/test_summary.py), then where the time went: seconds
# per step, and the Swift tests that spent the most in the programs they ran (sekit, Python, scripts;
# .build/test-logs/subprocess-timings.tsv, from SEKIT_TEST_TIMINGS). Logs: .build/test-logs/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
started=$SECONDS
source scripts/setup.sh
scripts/fixtures.sh >/dev/null
# The reference tier: the one place a script looks beside the clone.
if [[ -z "${SEKIT_REFERENCE_AUDIO:-}" && -d "$root/../shared/fixtures/metrics" ]]; then
    SEKIT_REFERENCE_AUDIO="$(cd "$root/../shared/fixtures/metrics" && pwd)"
    export SEKIT_REFERENCE_AUDIO
fi
echo "test: reference tier: ${SEKIT_REFERENCE_AUDIO:-none (SEKIT_REFERENCE_AUDIO unset: its tests are skipped)}" >&2
# The project's environment (.build/venv: what sekit needs at run time; the demo's, which
# DemoScriptTests runs), and the training environment (the same packages plus PyTorch, onnx and
# what needs them: made once per machine, shared by every clone). The tests run against the
# training environment, a superset, so every Python-backed metric and client is there.
SEKIT_PROJECT_PYTHON="$(scripts/python-env.sh)"
SEKIT_TRAIN_PYTHON="$(scripts/python-env.sh --train)"
SEKIT_PYTHON="$SEKIT_TRAIN_PYTHON"
export SEKIT_PROJECT_PYTHON SEKIT_TRAIN_PYTHON SEKIT_PYTHON
logs="$root/.build/test-logs"
mkdir -p "$logs"
SEKIT_TEST_TIMINGS="$logs/subprocess-timings.tsv"
rm -f "$SEKIT_TEST_TIMINGS"
export SEKIT_TEST_TIMINGS
timings=()
step_started=$SECONDS
step_done() { timings+=("$1 $((SECONDS - step_started)) s"); step_started=$SECONDS; }
step_done "setup"
echo "test: swift test (python reference: $SEKIT_PYTHON; the project's environment: $SEKIT_PROJECT_PYTHON)" >&2
set +e
swift test "$@" 2>&1 | tee "$logs/swift.log"
swift_status=${PIPESTATUS[0]}
set -e
step_done "swift test"
# The `sekit` Python package (experiments/python) against the real binary, in the training
# environment (its packages and PyTorch; the clone's package first on PYTHONPATH, as the training
# environment holds none).
swift build --product sekit
echo "test: Python package tests (experiments/python/tests)" >&2
set +e
SEKIT_BINARY="$(swift build --show-bin-path)/sekit" PYTHONPATH="$root/experiments/python${PYTHONPATH:+:$PYTHONPATH}" \
    "$SEKIT_TRAIN_PYTHON" -m unittest discover -s experiments/python/tests -t experiments/python -v 2>&1 | tee "$logs/python.log"
python_status=${PIPESTATUS[0]}
set -e
step_done "python tests"
steps=()
# The Swift API documentation (Sources/SEKit/SEKit.docc) builds offline, every symbol link resolving.
if scripts/docs.sh; then steps+=("docs=passed"); else steps+=("docs=failed"); fi
step_done "docs"

slurm="${SEKIT_SLURM_TESTS:-}"
if [[ "$slurm" == 0 ]]; then
    echo "test: Slurm integration test not run (SEKIT_SLURM_TESTS=0)" >&2
    steps+=("slurm=skipped:Slurm integration (SEKIT_SLURM_TESTS=0)")
elif [[ $(id -u) -ne 0 && "${CI:-}" != true && "$slurm" != 1 ]]; then
    echo "test: Slurm integration test not run: it starts slurmd, which needs root (SEKIT_SLURM_TESTS=1 tries anyway)" >&2
    steps+=("slurm=skipped:Slurm integration (needs root)")
else
    echo "test: scripts/test-slurm.sh" >&2
    if scripts/test-slurm.sh; then steps+=("slurm=passed"); else steps+=("slurm=failed"); fi
fi
step_done "slurm"
echo "test: time by step: $(IFS=,; echo "${timings[*]}" | sed 's/,/, /g')" >&2
if [[ -s "$SEKIT_TEST_TIMINGS" ]]; then
    echo "test: Swift tests that spent the most in programs they ran (seconds, programs):" >&2
    awk -F'\t' '{ s[$1] += $3; n[$1]++ } END { for (t in s) printf "%8.1f %4d  %s\n", s[t], n[t], t }' "$SEKIT_TEST_TIMINGS" \
        | sort -rn | awk 'NR <= 12' >&2  # awk reads it all: head would leave sort a SIGPIPE, 141 under pipefail
fi
python3 scripts/test-support/test_summary.py --swift "$logs/swift.log" --swift-status "$swift_status" \
    --python "$logs/python.log" --python-status "$python_status" \
    "${steps[@]/#/--step=}" --allowed scripts/test-support/allowed-skips.txt \
    && status=0 || status=$?
echo "test: $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s in all" >&2
exit $status
