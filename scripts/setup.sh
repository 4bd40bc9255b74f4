#!/usr/bin/env bash
# Installs the system packages SEKit builds and runs against, only those missing.
# Idempotent: a machine that has everything installs nothing. Debian 12 / Ubuntu.
set -euo pipefail

# python3-dev and gcc: the `pesq` package (ITU-T PESQ reference code) builds its C extension
# when pip installs it into the project's Python environment.
packages=(libsndfile1-dev libopus-dev libfftw3-dev libhdf5-dev libsqlite3-dev libsoxr-dev libebur128-dev libpng-dev
          pkg-config espeak-ng hdf5-tools python3-venv python3-dev gcc sqlite3)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Installed without their recommendations (LaTeX for `runs leaderboard --format latex` tests:
# pdflatex and booktabs, not the full TeX Live; Chromium, headless, for the `sekit report` tests;
# Slurm and MUNGE for scripts/test-slurm.sh, which runs its own single-node cluster from
# scripts/slurm/local-cluster.sh and never uses or starts the system's services).
lean_packages=(texlive-latex-recommended chromium fonts-dejavu-core slurm-wlm munge)
lean_missing=()
for p in "${lean_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || lean_missing+=("$p")
done
if ((${#missing[@]} + ${#lean_missing[@]})); then
    echo "setup: installing ${missing[*]} ${lean_missing[*]}" >&2
    sudo_cmd=()
    [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    if ((${#missing[@]})); then
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    if ((${#lean_missing[@]})); then
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${lean_missing[@]}" >/dev/null
    fi
fi
command -v swift >/dev/null || { [[ -x /opt/swift/usr/bin/swift ]] && export PATH=/opt/swift/usr/bin:$PATH; }
command -v swift >/dev/null || { echo "setup: swift not found; install Swift 6.1 or newer" >&2; exit 1; }
