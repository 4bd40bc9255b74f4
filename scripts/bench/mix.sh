#!/usr/bin/env bash
# Times, in one run, generating the same corpus (CLIPS four-second 16 kHz clips, default 2000,
# from datasets/fixtures speech and noise, SNR uniform -5..20 dB, mixture level -35..-15 dBFS RMS,
# all three stems as 16-bit WAV) with
#   sekit mix --jobs 1                                  (SEKit, one core)
#   scripts/bench/dns_mix_reference.py                  (the DNS Challenge procedure in numpy + soundfile, one core)
#   sekit-bench write-floor                             (the floor: only writing the same 3 x CLIPS files)
# with /usr/bin/time (user+sys CPU, wall, max RSS), and prints the ratios and the seconds of audio
# produced per CPU second (x real time per core). The three run in turn, RUNS rounds (default 3);
# the figures are medians over the rounds and the ratio is the median of the rounds' ratios
# (pairing keeps it meaningful when the shared machine's file system speed drifts). Also mixes
# CLIPS/4 clips to show that peak memory does not grow with the corpus.
#
# Degradations: each round also times sekit mix --jobs 1 with every degradation stage enabled at
# probability 0.5 (band limit 2-7 kHz, the six codecs, packet loss 5-25 %, clipping distortion
# 0.1-0.5 of the peak), and (STAGES=1, the default) with each stage alone at probability 0.5; a
# stage's cost is its run's user time minus the plain mix's (the stages compute in user space; the
# kernel's file-creation time swings between runs by more than the cheap stages cost), reported as
# a share of the all-stages mix's user time, with the real-time factor per core of every run
# (CPU = user + system, and user alone). The all-stages run and the codec stage alone are timed at
# the defaults (Opus at complexity 10, libsndfile's) and again with each --opus-complexity in
# OPUS_COMPLEXITIES (default "0:10 5": drawn uniformly per clip, and fixed at 5). Outputs go under
# BENCH_DIR (default .build/bench/mix, on the project's disk; a tmpfs such as /dev/shm/sekit-mix
# takes the disk's file-creation cost, the same for every writer, out of the comparison).
# URGENT=1: times the URGENT recipe instead, and each of its parts' share (scripts/bench/mix_urgent.inc.sh).
# FROM_MANIFEST=1: times sekit mix and then sekit mix --from-manifest of its manifest instead, plain and
# degraded, checking the stems are byte-identical, and prints the ratio (scripts/bench/mix_from_manifest.inc.sh).
#
# --archive tar|shar (issue 31; docs/archives.md): instead, each round times, with CLIPS default
# 1000, sekit mix --jobs 1 --archive FORMAT (shards of 1000 clips), the DNS procedure, and sekit mix
# into loose files, then sekit features --jobs 1 on the archive corpus and on the loose corpus;
# prints the wall and CPU medians, the DNS / archive ratio (wall and CPU), the archive mix's real time
# per core, and the archive / loose features time.
set -euo pipefail
archive=""
if [[ "${1:-}" == --archive ]]; then archive="${2:?--archive needs tar or shar}"; fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source scripts/setup.sh
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
fixtures="$("$root/scripts/fixtures.sh")"
clips="${CLIPS:-$([[ -n "$archive" ]] && echo 1000 || echo 2000)}"
runs="${RUNS:-3}"
small=$((clips / 4))
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
swift build -c release --product sekit >&2
[[ "${URGENT:-0}" == 1 ]] || swift build -c release --product sekit-bench >&2
bin="$(swift build -c release --show-bin-path)"
work="${BENCH_DIR:-$root/.build/bench/mix}"
mkdir -p "$work"
source scripts/bench/lib.sh  # timed
# ext4 makes creating files slow for a while after many were deleted (its recently-deleted inode
# check): a round's outputs are deleted after it, followed by a pause and an untimed warm-up write
# before the next one, and leftovers of an interrupted run are deleted here followed by a pause.
if compgen -G "$work/out-*" >/dev/null; then
    rm -rf "$work"/out-*; sync
    echo "mix: deleted earlier outputs; waiting 40 s so file creation is measured in a steady state" >&2
    sleep "${PAUSE:-40}"
fi
cat "$fixtures"/speech/*.wav "$fixtures"/noise/*.wav >/dev/null   # warm the page cache for every side
if [[ "${URGENT:-0}" == 1 ]]; then   # the URGENT recipe and each part's share (see mix_urgent.inc.sh)
    source scripts/bench/mix_urgent.inc.sh
    exit 0
fi
common=(--speech "$fixtures/speech" --noise "$fixtures/noise" --seconds 4 --snr-db=-5:20 --level-dbfs=-35:-15
        --seed 1 --jobs 1 --no-catalog)
if [[ "${FROM_MANIFEST:-0}" == 1 ]]; then   # mix, then --from-manifest of its manifest (see mix_from_manifest.inc.sh)
    source scripts/bench/mix_from_manifest.inc.sh
    exit 0
fi
if [[ -n "$archive" ]]; then
    : >"$work/archive-rounds.txt"
    for round in $(seq "$runs"); do
        "$bin/sekit-bench" write-floor "$work/out-warmup-$round" "$clips"
        read -r a_wall a_cpu _ _ < <(timed sekit-archive "$bin/sekit" mix "${common[@]}" --count "$clips" --archive "$archive" \
            --out "$work/out-archive-$round")
        read -r p_wall p_cpu _ _ < <(timed python "$python" scripts/bench/dns_mix_reference.py "$fixtures/speech" "$fixtures/noise" \
            "$work/out-python-$round" "$clips" 1)
        read -r s_wall s_cpu _ _ < <(timed sekit "$bin/sekit" mix "${common[@]}" --count "$clips" --out "$work/out-sekit-$round")
        read -r fa_wall fa_cpu _ _ < <(timed features-archive "$bin/sekit" features --corpus "$work/out-archive-$round" \
            --out "$work/out-features-archive-$round.h5" --jobs 1 --no-catalog)
        read -r fl_wall fl_cpu _ _ < <(timed features-loose "$bin/sekit" features --corpus "$work/out-sekit-$round" \
            --out "$work/out-features-loose-$round.h5" --jobs 1 --no-catalog)
        echo "$a_wall $a_cpu $p_wall $p_cpu $s_wall $s_cpu $fa_wall $fa_cpu $fl_wall $fl_cpu" >>"$work/archive-rounds.txt"
        echo "mix --archive: round $round: wall archive $a_wall, DNS $p_wall, loose $s_wall; features $fa_wall vs $fl_wall" >&2
        rm -rf "$work"/out-*
        if (( round < runs )); then sync; sleep "${PAUSE:-40}"; fi
    done
    "$python" - "$clips" "$archive" "$work/archive-rounds.txt" <<'PY'
import statistics, sys
clips, archive = int(sys.argv[1]), sys.argv[2]
rounds = [list(map(float, line.split())) for line in open(sys.argv[3]) if line.strip()]
med = lambda k: statistics.median(r[k] for r in rounds)
ratio = lambda a, b: statistics.median(r[a] / r[b] for r in rounds)
audio = clips * 4.0
print(f"corpus: {clips} clips x 4 s at 16 kHz, three 16-bit WAV stems; medians over {len(rounds)} rounds, one core each")
for name, w, c in ((f"sekit mix --archive {archive}", 0, 1), ("DNS procedure (numpy)", 2, 3), ("sekit mix (loose files)", 4, 5)):
    print(f"{name:28s} {med(w):7.2f} s wall {med(c):7.2f} s CPU   {audio / med(c):8,.0f}x real time per core")
print(f"DNS procedure / sekit mix --archive {archive}: {ratio(2, 0):.2f}x wall, {ratio(3, 1):.2f}x CPU "
      f"(loose files: {ratio(2, 4):.2f}x wall, {ratio(3, 5):.2f}x CPU)")
print(f"sekit features --jobs 1: archive corpus {med(6):.2f} s wall ({med(7):.2f} CPU), loose corpus {med(8):.2f} s wall "
      f"({med(9):.2f} CPU): archive / loose {ratio(6, 8):.3f} wall, {ratio(7, 9):.3f} CPU")
PY
    exit 0
fi
# Every degradation stage at probability 0.5, and each stage alone (for its cost).
declare -A stage_flags=(
    [bandwidth]="--bandwidth-hz 2000:7000 --bandwidth-probability 0.5"
    [codec]="--codec mp3,opus,vorbis,ulaw,alaw,gsm --codec-probability 0.5"
    [packet-loss]="--packet-loss 0.05:0.25 --packet-loss-probability 0.5"
    [clip-distortion]="--clip-distortion 0.1:0.5 --clip-distortion-probability 0.5"
)
stage_names=(bandwidth codec packet-loss clip-distortion)
read -r -a complexities <<<"${OPUS_COMPLEXITIES-0:10 5}"
variants=(default "${complexities[@]}")
variant_flags() {   # VARIANT: the extra flags of an --opus-complexity variant
    [[ "$1" == default ]] || echo "--opus-complexity $1"
}
all_stages=()
for name in "${stage_names[@]}"; do read -r -a flags <<<"${stage_flags[$name]}"; all_stages+=("${flags[@]}"); done
rounds=()
: >"$work/stage-times.txt"   # lines "round run cpu user", run = plain | all:VARIANT | STAGE[:VARIANT]
for round in $(seq "$runs"); do
    # The first command to create files after a mass deletion pays for it (2-3 s of system time
    # here, even after the pause): an untimed write of the same number of files absorbs that.
    "$bin/sekit-bench" write-floor "$work/out-warmup-$round" "$clips"
    read -r s_wall s_cpu s_rss s_user < <(timed sekit "$bin/sekit" mix "${common[@]}" --count "$clips" --out "$work/out-sekit-$round")
    read -r p_wall p_cpu p_rss p_user < <(timed python "$python" scripts/bench/dns_mix_reference.py "$fixtures/speech" "$fixtures/noise" "$work/out-python-$round" "$clips" 1)
    read -r f_wall f_cpu f_rss f_user < <(timed floor "$bin/sekit-bench" write-floor "$work/out-floor-$round" "$clips")
    echo "mix: round $round: CPU (user) seconds: sekit $s_cpu ($s_user), DNS procedure $p_cpu ($p_user), floor $f_cpu ($f_user)" >&2
    rounds+=("$s_wall $s_cpu $s_rss $p_wall $p_cpu $p_rss $f_wall $f_cpu $s_user $p_user $f_user")
    echo "$round plain $s_cpu $s_user" >>"$work/stage-times.txt"
    for variant in "${variants[@]}"; do
        read -r -a extra <<<"$(variant_flags "$variant")"
        read -r d_wall d_cpu d_rss d_user < <(timed "sekit-degraded-${variant/:/-}" "$bin/sekit" mix "${common[@]}" "${all_stages[@]}" "${extra[@]}" \
            --count "$clips" --out "$work/out-degraded-${variant/:/-}-$round")
        echo "$round all:$variant $d_cpu $d_user" >>"$work/stage-times.txt"
        echo "mix: round $round: all stages ($variant): $d_cpu s CPU ($d_user user)" >&2
    done
    if [[ "${STAGES:-1}" == 1 ]]; then
        for name in "${stage_names[@]}"; do
            for variant in "${variants[@]}"; do
                [[ "$name" == codec || "$variant" == default ]] || continue
                read -r -a flags <<<"${stage_flags[$name]} $( [[ "$name" == codec ]] && variant_flags "$variant")"
                read -r g_wall g_cpu g_rss g_user < <(timed "sekit-$name-${variant/:/-}" "$bin/sekit" mix "${common[@]}" "${flags[@]}" \
                    --count "$clips" --out "$work/out-$name-${variant/:/-}-$round")
                key="$name"; [[ "$name" == codec ]] && key="$name:$variant"
                echo "$round $key $g_cpu $g_user" >>"$work/stage-times.txt"
                echo "mix: round $round: $key alone: $g_cpu s CPU ($g_user user)" >&2
            done
        done
    fi
    rm -rf "$work"/out-*
    if (( round < runs )); then sync; sleep "${PAUSE:-40}"; fi
done
read -r q_wall q_cpu q_rss q_user < <(timed sekit-small "$bin/sekit" mix "${common[@]}" --count "$small" --out "$work/out-sekit-small")
printf '%s\n' "${rounds[@]}" >"$work/rounds.txt"
"$python" - "$clips" "$work/stage-times.txt" "${stage_names[*]}" "${variants[@]}" <<'PY'
import collections, statistics, sys
clips, names, variants = int(sys.argv[1]), sys.argv[3].split(), sys.argv[4:]
times = collections.defaultdict(list)
for line in open(sys.argv[2]):
    if line.strip():
        _, run, cpu, user = line.split()
        times[run].append((float(cpu), float(user)))
med = lambda run, k: statistics.median(t[k] for t in times[run])
audio = clips * 4.0
plain, plain_user = med("plain", 0), med("plain", 1)
print(f"degradations (sekit mix --jobs 1, every stage at probability 0.5; real time per core = {audio:.0f} s of audio "
      f"over CPU seconds, user + system); plain mix {plain:.2f} s CPU ({plain_user:.2f} user) = {audio/plain:,.0f}x "
      f"({audio/plain_user:,.0f}x in user time)")
for variant in variants:
    label = "defaults (Opus complexity 10)" if variant == "default" else f"--opus-complexity {variant}"
    degraded, degraded_user = med(f"all:{variant}", 0), med(f"all:{variant}", 1)
    print(f"all stages, {label}: {degraded:.2f} s CPU ({degraded_user:.2f} user) = {audio/degraded:,.0f}x real time "
          f"per core ({audio/degraded_user:,.0f}x in user time)")
    for name in names:
        run = f"{name}:{variant}" if name == "codec" else name
        if run not in times:
            continue
        cpu, user = med(run, 0), med(run, 1)
        cost = user - plain_user
        print(f"  {name:16s} alone: {cpu:6.2f} s CPU ({user:5.2f} user) = {audio/cpu:7,.0f}x; "
              f"cost {cost:5.2f} s user = {100 * cost / degraded_user:4.1f} % of the all-stages mix's user time")
PY
"$python" - "$clips" "$small" "$q_rss" "$work/rounds.txt" <<'PY'
import statistics, sys
clips, small, qr = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
rounds = [list(map(float, line.split())) for line in open(sys.argv[4]) if line.strip()]
med = lambda k: statistics.median(r[k] for r in rounds)
sw, sc, sr, pw, pc, pr, fw, fc, su, pu, fu = (med(k) for k in range(11))
ratio = statistics.median(r[4] / r[1] for r in rounds)
user_ratio = statistics.median(r[9] / r[8] for r in rounds)
floor_ratio = statistics.median(r[1] / r[7] for r in rounds)
audio = clips * 4.0
print(f"corpus: {clips} clips x 4 s = {audio/3600:.2f} h of noisy audio at 16 kHz; noisy, clean and noise stems as 16-bit WAV")
print(f"medians over {len(rounds)} rounds (each round: sekit, DNS procedure, floor, in turn):")
for name, w, c, u in (("sekit mix --jobs 1", sw, sc, su), ("DNS procedure (numpy)", pw, pc, pu), ("floor (writing only)", fw, fc, fu)):
    print(f"{name:24s} {w:7.2f} s wall {c:7.2f} s CPU ({u:5.2f} user)   {audio/c:8,.0f}x real time per core")
print(f"sekit / DNS procedure: {ratio:.2f}x (CPU; rounds: " + ", ".join(f"{r[4] / r[1]:.2f}" for r in rounds) + ")"
      f"   sekit CPU / floor CPU: {floor_ratio:.2f}")
print(f"user time only (leaving out the kernel's file-creation time, which swings with the file "
      f"system's state): DNS procedure / sekit {user_ratio:.2f}x")
print(f"max RSS: sekit {sr/1024:.0f} MB at {clips} clips, {qr/1024:.0f} MB at {small} clips; python {pr/1024:.0f} MB")
PY
rm -rf "$work"/out-*
