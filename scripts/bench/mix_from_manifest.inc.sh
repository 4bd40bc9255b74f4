# Sourced by scripts/bench/mix.sh when FROM_MANIFEST=1 (after $bin, $work, $python, $fixtures,
# $clips, $runs, $common and `timed` are set): times, RUNS rounds, sekit mix --jobs 1 of the
# benchmark's corpus (CLIPS clips of 4 s) and then sekit mix --from-manifest --jobs 1 of its
# manifest into another folder, plain and with every degradation stage at probability 0.5; checks
# that the re-rendered stems are byte-identical (cmp) and prints the medians and the median of the
# rounds' from-manifest / mix ratios (wall and CPU). The --from-manifest side includes reading and
# hashing every source the manifest names (its check before any clip is written).
declare -A fm_flags=(
    [plain]=""
    [degraded]="--bandwidth-hz 2000:7000 --bandwidth-probability 0.5 --codec mp3,opus,vorbis,ulaw,alaw,gsm --codec-probability 0.5
                --packet-loss 0.05:0.25 --packet-loss-probability 0.5 --clip-distortion 0.1:0.5 --clip-distortion-probability 0.5"
)
: >"$work/from-manifest-rounds.txt"   # lines "round corpus mix_wall mix_cpu fm_wall fm_cpu"
for round in $(seq "$runs"); do
    for corpus in plain degraded; do
        read -r -a flags <<<"${fm_flags[$corpus]}"
        "$bin/sekit-bench" write-floor "$work/out-warmup-$round-$corpus" "$clips"
        read -r m_wall m_cpu _ _ < <(timed "mix-$corpus" "$bin/sekit" mix "${common[@]}" "${flags[@]}" --count "$clips" \
            --out "$work/out-original-$round-$corpus")
        read -r r_wall r_cpu _ _ < <(timed "from-manifest-$corpus" "$bin/sekit" mix --jobs 1 --no-catalog \
            --from-manifest "$work/out-original-$round-$corpus/manifest.jsonl" --out "$work/out-rerendered-$round-$corpus")
        for stem in noisy clean noise; do
            for file in "$work/out-original-$round-$corpus/$stem"/*.wav; do
                cmp -s "$file" "$work/out-rerendered-$round-$corpus/$stem/$(basename "$file")" \
                    || { echo "mix --from-manifest: $file differs from its re-rendering" >&2; exit 1; }
            done
        done
        echo "$round $corpus $m_wall $m_cpu $r_wall $r_cpu" >>"$work/from-manifest-rounds.txt"
        echo "mix --from-manifest: round $round, $corpus: mix $m_wall s wall ($m_cpu CPU), from-manifest $r_wall s wall ($r_cpu CPU)" >&2
        rm -rf "$work"/out-*
        sync; sleep "${PAUSE:-40}"
    done
done
"$python" - "$clips" "$work/from-manifest-rounds.txt" <<'PY'
import collections, statistics, sys
clips = int(sys.argv[1])
rows = collections.defaultdict(list)
for line in open(sys.argv[2]):
    if line.strip():
        _, corpus, *values = line.split()
        rows[corpus].append(list(map(float, values)))
print(f"corpus: {clips} clips x 4 s at 16 kHz, three 16-bit WAV stems; sekit mix --jobs 1, then --from-manifest --jobs 1 "
      f"of its manifest (stems byte-identical); medians over {len(rows['plain'])} rounds")
for corpus, rounds in rows.items():
    med = lambda k: statistics.median(r[k] for r in rounds)
    ratio = lambda a, b: statistics.median(r[a] / r[b] for r in rounds)
    print(f"{corpus:9s} mix {med(0):7.2f} s wall {med(1):7.2f} s CPU; from-manifest {med(2):7.2f} s wall {med(3):7.2f} s CPU; "
          f"from-manifest / mix: {ratio(2, 0):.3f} wall, {ratio(3, 1):.3f} CPU")
PY
