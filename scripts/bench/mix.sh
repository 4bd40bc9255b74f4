#!/usr/bin/env bash
# Times, in one run, generating the same corpus (CLIPS four-second 16 kHz clips, default 2000,
# from ../shared/fixtures speech and noise, SNR uniform -5..20 dB, mixture level -35..-15 dBFS RMS,
# all three stems as 16-bit WAV) with
#   sekit mix --jobs 1                                  (SEKit, one core)
#   scripts/bench/dns_mix_reference.py                  (the DNS Challenge procedure in numpy + soundfile, one core)
#   sekit-bench write-floor                             (the floor: only writing the same 3 x CLIPS files)
# with /usr/bin/time (user+sys CPU, wall, max RSS), and prints the ratios and the seconds of audio
# produced per CPU second (x real time per core). Also mixes CLIPS/4 clips to show that peak
# memory does not grow with the corpus.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source scripts/setup.sh
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
fixtures="${SEKIT_FIXTURES:-$root/../shared/fixtures}"
clips="${CLIPS:-2000}"
small=$((clips / 4))
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
swift build -c release --product sekit >&2
swift build -c release --product sekit-bench >&2
bin="$(swift build -c release --show-bin-path)"
work="$root/.build/bench/mix"
mkdir -p "$work"
# ext4 makes creating files slow for a while after many were deleted (its recently-deleted inode
# check), which would penalise whichever command runs first: outputs are deleted at the end, and
# leftovers of an interrupted run are deleted here followed by a pause.
if compgen -G "$work/out-*" >/dev/null; then
    rm -rf "$work"/out-*; sync
    echo "mix: deleted earlier outputs; waiting 40 s so file creation is measured in a steady state" >&2
    sleep 40
fi
cat "$fixtures"/speech/*.wav "$fixtures"/noise/*.wav >/dev/null   # warm the page cache for every side
timed() {   # NAME COMMAND...: prints "wall cpu maxrss_kb"
    local name="$1"; shift
    /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err"
    awk '{print $1, $2 + $3, $4}' "$work/$name.time"
}
common=(--speech "$fixtures/speech" --noise "$fixtures/noise" --seconds 4 --snr-db=-5:20 --level-dbfs=-35:-15
        --seed 1 --jobs 1 --no-catalog)
read -r s_wall s_cpu s_rss < <(timed sekit "$bin/sekit" mix "${common[@]}" --count "$clips" --out "$work/out-sekit")
read -r p_wall p_cpu p_rss < <(timed python "$python" scripts/bench/dns_mix_reference.py "$fixtures/speech" "$fixtures/noise" "$work/out-python" "$clips" 1)
read -r f_wall f_cpu f_rss < <(timed floor "$bin/sekit-bench" write-floor "$work/out-floor" "$clips")
read -r q_wall q_cpu q_rss < <(timed sekit-small "$bin/sekit" mix "${common[@]}" --count "$small" --out "$work/out-sekit-small")
"$python" - "$clips" "$small" "$s_wall" "$s_cpu" "$s_rss" "$p_wall" "$p_cpu" "$p_rss" "$f_wall" "$f_cpu" "$q_rss" <<'PY'
import sys
clips, small = int(sys.argv[1]), int(sys.argv[2])
sw, sc, sr, pw, pc, pr, fw, fc, qr = map(float, sys.argv[3:])
audio = clips * 4.0
print(f"corpus: {clips} clips x 4 s = {audio/3600:.2f} h of noisy audio at 16 kHz; noisy, clean and noise stems as 16-bit WAV")
for name, w, c in (("sekit mix --jobs 1", sw, sc), ("DNS procedure (numpy)", pw, pc), ("floor (writing only)", fw, fc)):
    print(f"{name:24s} {w:7.2f} s wall {c:7.2f} s CPU   {audio/c:8,.0f}x real time per core")
print(f"sekit / DNS procedure: {pc/sc:.2f}x (CPU)   sekit CPU / floor CPU: {sc/fc:.2f}")
print(f"max RSS: sekit {sr/1024:.0f} MB at {clips} clips, {qr/1024:.0f} MB at {small} clips; python {pr/1024:.0f} MB")
PY
rm -rf "$work"/out-*
