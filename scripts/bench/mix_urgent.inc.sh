# Sourced by scripts/bench/mix.sh when URGENT=1 (after $bin, $work, $python, $fixtures and `timed`
# are set): times sekit mix --jobs 1 with datasets/recipes/urgent2025.yaml on the fixtures
# (CLIPS clips, default 200, of 4 s at the recipe's 48 kHz; RIRs small_room and rir_clap, which
# are shorter than the clips), RUNS rounds, and the recipe without each part: reverberation, wind
# noise and every degradation (share = (user time of the whole recipe - user time without it) /
# the whole recipe's user time), and with each degradation kind alone at the frequency it has in
# the recipe, 1.25/4 (share = (its user time - the user time without degradations) / the whole
# recipe's); real time per core = seconds of audio / CPU seconds (user + system).
urgent_recipe=datasets/recipes/urgent2025.yaml
urgent_clips="${CLIPS:-200}"
urgent_inputs=(--speech "$fixtures/speech" --noise "$fixtures/noise" --rir "$fixtures/rir/small_room.wav"
               --rir "$fixtures/rir/rir_clap.wav" --seconds 4 --count "$urgent_clips" --jobs 1 --no-catalog)
declare -A urgent_drop=(
    [whole]='^$' [reverberation]='^(rir|rir-probability|target|early-ms):' [wind]='^wind-'
    [degradations]='^(bandwidth-rates|codec|packet-loss|packet-ms|max-burst-packets|clip-quantiles|degradations-per-clip.*):'
)
# A degradation kind alone, at the frequency it has in the recipe (each kind is in 1.25/4 of the
# clips): the recipe without its degradations, plus the kind's keys and its probability.
declare -A urgent_kind=(
    [bandwidth]='^bandwidth-rates:' [codec]='^codec:' [packet-loss]='^(packet-loss|packet-ms|max-burst-packets):'
    [clipping]='^clip-quantiles:'
)
declare -A urgent_probability=([bandwidth]=bandwidth-probability [codec]=codec-probability
                               [packet-loss]=packet-loss-probability [clipping]=clip-distortion-probability)
urgent_names=(whole reverberation wind degradations bandwidth codec packet-loss clipping)
: >"$work/urgent-times.txt"
for round in $(seq "$runs"); do
    for name in "${urgent_names[@]}"; do
        if [[ -n "${urgent_drop[$name]:-}" ]]; then
            grep -v -E "${urgent_drop[$name]}" "$urgent_recipe" >"$work/urgent-$name.yaml"
        else
            { grep -v -E "${urgent_drop[degradations]}" "$urgent_recipe"; grep -E "${urgent_kind[$name]}" "$urgent_recipe"
              echo "${urgent_probability[$name]}: 0.3125"; } >"$work/urgent-$name.yaml"
        fi
        args=("${urgent_inputs[@]}")
        [[ "$name" == reverberation ]] && args=(--speech "$fixtures/speech" --noise "$fixtures/noise" --seconds 4
                                               --count "$urgent_clips" --jobs 1 --no-catalog)
        read -r u_wall u_cpu u_rss u_user < <(timed "urgent-$name" "$bin/sekit" mix --recipe "$work/urgent-$name.yaml" \
            "${args[@]}" --out "$work/out-urgent-$name-$round")
        echo "$round $name $u_cpu $u_user" >>"$work/urgent-times.txt"
        echo "mix: round $round: URGENT recipe, $name: $u_cpu s CPU ($u_user user)" >&2
        rm -rf "$work/out-urgent-$name-$round"
    done
done
"$python" - "$urgent_clips" "$work/urgent-times.txt" <<'PY'
import collections, statistics, sys
clips = int(sys.argv[1])
times = collections.defaultdict(list)
for line in open(sys.argv[2]):
    if line.strip():
        _, name, cpu, user = line.split()
        times[name].append((float(cpu), float(user)))
med = lambda name, k: statistics.median(t[k] for t in times[name])
audio = clips * 4.0
whole, whole_user = med("whole", 0), med("whole", 1)
print(f"URGENT recipe (datasets/recipes/urgent2025.yaml, {clips} clips x 4 s at 48 kHz, sekit mix --jobs 1): "
      f"{whole:.2f} s CPU ({whole_user:.2f} user) = {audio / whole:,.1f}x real time per core")
none_user = med("degradations", 1)
for name in [n for n in times if n != "whole"]:
    cpu, user = med(name, 0), med(name, 1)
    if name in ("reverberation", "wind", "degradations"):
        print(f"  without {name:14s}: {cpu:7.2f} s CPU ({user:6.2f} user); {name} share "
              f"{100 * (whole_user - user) / whole_user:5.1f} % of the recipe's user time")
    else:
        print(f"  {name:14s} alone  : {cpu:7.2f} s CPU ({user:6.2f} user); {name} share "
              f"{100 * (user - none_user) / whole_user:5.1f} % of the recipe's user time")
PY
