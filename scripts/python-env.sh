#!/usr/bin/env bash
# Creates (once) the Python virtual environment used by interoperability tests and
# benchmarks, and by the metrics that run their reference implementation in Python (`pesq` 0.0.4
# for PESQ and the composite measures, `speechmos` 0.0.1.1 with onnxruntime for DNSMOS and PLCMOS,
# `visqol-python` for ViSQOL, onnxruntime for `enhance --model`): the packages of
# scripts/requirements.txt (which includes the metric worker's own list,
# Sources/SEKit/Resources/metric-worker-requirements.txt).
# With the default list it also installs the project's Python package `sekit` (experiments/python)
# editable: `pip install -e experiments/python`, again whenever its pyproject.toml or the clone's path
# changes (a venv belongs to one clone).
# Location: $SEKIT_VENV, default .build/venv. Prints the interpreter path on stdout.
#   scripts/python-env.sh [--requirements FILE]   (another list, without the package: scripts/install.sh
#                                                   installs the worker's only)
#   scripts/python-env.sh --train                 the training environment (docs/crnn-recipe.md): the same
#       packages plus PyTorch and onnx (scripts/requirements-train.txt) and, without their dependencies,
#       `distillmos` for Distill-MOS and `Resemblyzer` for speaker similarity (scripts/requirements-distillmos.txt),
#       made once per machine and per
#       requirements hash under ${XDG_CACHE_HOME:-~/.cache}/sekit/envs/train-HASH and shared by every clone
#       ($SEKIT_TRAIN_VENV names another folder). It holds no `sekit` package: the recipe, the tests and
#       the benchmarks put the clone's experiments/python first on sys.path (PYTHONPATH).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${SEKIT_VENV:-$root/.build/venv}"
requirements="$root/scripts/requirements.txt"
package="$root/experiments/python"
train=""
if [[ "${1:-}" == --train ]]; then
    train=1
    requirements="$root/scripts/requirements-train.txt"
    package=""
elif [[ "${1:-}" == --requirements ]]; then
    requirements="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
    package=""
fi
# What the environment must hold: the list and every list it includes (-r FILE, relative to it).
wanted() {
    local file="$1" line
    cat "$file"
    while read -r line; do
        [[ "$line" == "-r "* ]] && wanted "$(dirname "$file")/${line#-r }"
    done < "$file"
    return 0
}
if [[ -n "$train" ]]; then
    # One environment per requirements (and interpreter) for the whole machine; a lock keeps two
    # clones from building it at once, and one left half-made (no stamp) is made again.
    hash="$( (wanted "$requirements"; python3 --version) | sha256sum | cut -c1-16)"
    venv="${SEKIT_TRAIN_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sekit/envs/train-$hash}"
    mkdir -p "$(dirname "$venv")"
    exec 9> "$venv.lock"
    flock 9
    if [[ -d "$venv" && ! -f "$venv/.sekit-requirements" ]]; then
        echo "python-env: $venv was left unfinished; making it again" >&2
        rm -rf "$venv"
    fi
    if [[ ! -f "$venv/.sekit-requirements" ]]; then
        echo "python-env: making the training environment $venv (once per machine; every clone shares it)." >&2
        echo "python-env: it installs PyTorch: PyPI's Linux wheel brings the CUDA libraries, about 2.8 GB, downloaded once" \
             "into pip's cache (${PIP_CACHE_DIR:-~/.cache/pip}); a CPU-only wheel is taken where pip finds one (scripts/requirements-torch.txt)." >&2
    fi
fi
stamp="$venv/.sekit-requirements"
if [[ ! -x "$venv/bin/python" ]]; then
    echo "python-env: creating $venv" >&2
    python3 -m venv "$venv"
fi
if ! cmp -s <(wanted "$requirements") "$stamp" 2>/dev/null; then
    echo "python-env: installing $(wanted "$requirements" | grep -v -e '^-r ' -e '^#' | tr '\n' ' ')" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
    wanted "$requirements" > "$stamp.tmp" && mv "$stamp.tmp" "$stamp"
fi
# Distill-MOS, xls-r-sqa and Resemblyzer without their dependencies (scripts/requirements-distillmos.txt says why),
# into the training environment, where torch is.
nodeps="$root/scripts/requirements-distillmos.txt"
nodeps_stamp="$venv/.sekit-requirements-nodeps"
if [[ -n "$train" ]] && ! cmp -s "$nodeps" "$nodeps_stamp" 2>/dev/null; then
    echo "python-env: installing $(grep -v '^#' "$nodeps" | tr '\n' ' ')without their dependencies" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$nodeps" >&2
    cp "$nodeps" "$nodeps_stamp.tmp" && mv "$nodeps_stamp.tmp" "$nodeps_stamp"
fi
# torchaudio for the SRMR reference, beside the training environment's site-packages
# (scripts/requirements-srmr-reference.txt says why).
side="$root/scripts/requirements-srmr-reference.txt"
side_stamp="$venv/srmr-reference/.sekit-requirements"
if [[ -n "$train" ]] && ! cmp -s "$side" "$side_stamp" 2>/dev/null; then
    echo "python-env: installing $(grep -v '^#' "$side" | tr '\n' ' ')into $venv/srmr-reference (the SRMR reference only)" >&2
    rm -rf "$venv/srmr-reference"
    "$venv/bin/pip" install -q --disable-pip-version-check --no-deps --target "$venv/srmr-reference" -r "$side" >&2
    cp "$side" "$side_stamp.tmp" && mv "$side_stamp.tmp" "$side_stamp"
fi
# The package, editable (its dependencies, numpy and h5py, are in the list above).
package_stamp="$venv/.sekit-package"
package_wanted() { echo "$package"; cat "$package/pyproject.toml"; }
if [[ -n "$package" ]] && ! cmp -s <(package_wanted) "$package_stamp" 2>/dev/null; then
    echo "python-env: installing the sekit package from $package (editable)" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -e "$package" >&2
    package_wanted > "$package_stamp.tmp" && mv "$package_stamp.tmp" "$package_stamp"
fi
if [[ -n "$train" ]] && ! "$venv/bin/python" -c "import torch, onnx" 2>/dev/null; then
    echo "python-env: $venv cannot import torch and onnx (scripts/requirements-train.txt); remove $stamp to reinstall" >&2
    exit 1
fi
echo "$venv/bin/python"
