#!/usr/bin/env bash
# SEKit's main job on the built-in demo corpus, from a fresh machine:
#   1. builds a release sekit (installing system packages first if missing),
#   2. makes the demo corpus (espeak-ng speech, SEKit-generated noise) under datasets/demo/generated,
#   3. inspects it (sekit info) and catalogues it (sekit catalog import),
#   4. mixes a noisy corpus with a train/test split (sekit mix) and prints its SNR histogram,
#   5. exports STFT features and the ideal ratio mask to HDF5 and prints the layout (sekit features),
#   6. resynthesises the oracle-mask output (sekit synthesize),
#   7. scores the noisy test inputs and the oracle output against the clean references (sekit score),
#      and two classical baselines (sekit enhance --method logmmse|wiener, then sekit score),
#   8. lists the runs the catalogue remembers (sekit runs list),
#   9. compares the oracle with the noisy input (sekit runs diff: paired bootstrap CI and Wilcoxon test)
#      and prints the leaderboard of the test corpus (sekit runs leaderboard).
# Everything it writes is under demo-out/ (and the catalogue demo-out/catalog.sqlite).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/setup.sh

echo "== building sekit (release)" >&2
swift build -c release --product sekit >&2
sekit="$(swift build -c release --show-bin-path)/sekit"
out="$root/demo-out"
mkdir -p "$out"
export SEKIT_CATALOG="$out/catalog.sqlite"

echo "== demo corpus" >&2
datasets/demo/make_demo_corpus.sh "$sekit" "$root/datasets/demo/generated"

echo "== sekit info (a few files)" >&2
"$sekit" info datasets/demo/generated/speech/en-us_m3/utt00.wav datasets/demo/generated/noise/pink.wav

echo "== sekit catalog import" >&2
"$sekit" catalog import --kind speech --corpus demo-speech --speaker-pattern '^([^/]+)/' datasets/demo/generated/speech
"$sekit" catalog import --kind noise --corpus demo-noise datasets/demo/generated/noise

echo "== sekit mix (recipe datasets/recipes/demo.yaml, catalogued corpora)" >&2
# Run it again and it resumes: finished clips are not redone.
"$sekit" mix --recipe datasets/recipes/demo.yaml --speech corpus:demo-speech --noise corpus:demo-noise \
    --name demo --out "$out/corpus"

echo "== sekit features: STFT magnitudes, clean targets and the ideal ratio mask into HDF5" >&2
"$sekit" features --corpus "$out/corpus" --out "$out/features.h5" --targets clean,irm,noisy_phase --overwrite
echo "layout (h5dump -H, groups and datasets):"
h5dump -H "$out/features.h5" | awk '/^ *(GROUP|DATASET)/ {print "  " $0; want = /DATASET/} /DATASPACE/ && want {print "  " $0; want = 0}'
echo "  root attributes: $(h5dump -H "$out/features.h5" | awk '/^   ATTRIBUTE/ {gsub(/"/, "", $2); printf "%s ", $2}')"

echo "== sekit synthesize: the oracle ratio mask back to audio" >&2
"$sekit" synthesize --features "$out/features.h5" --dataset irm --kind mask --out "$out/oracle-irm"

echo "== sekit score: the noisy test inputs against the clean references" >&2
"$sekit" score --corpus "$out/corpus" --split test --metrics snr,segsnr,sisdr,stoi,estoi --checkpoint noisy \
    --per-clip "$out/scores-noisy.csv"

echo "== sekit score: the oracle-mask resynthesis (an upper bound for mask-based models)" >&2
"$sekit" score --corpus "$out/corpus" --split test --enhanced "$out/oracle-irm" --metrics snr,segsnr,sisdr,stoi,estoi \
    --checkpoint oracle-irm

echo "== sekit enhance + score: classical baselines (log-MMSE, Wiener) for the leaderboard" >&2
for method in logmmse wiener; do
    "$sekit" enhance --method "$method" --corpus "$out/corpus" --split test --out "$out/enhanced/$method"
    "$sekit" score --corpus "$out/corpus" --split test --enhanced "$out/enhanced/$method" --metrics snr,segsnr,sisdr,stoi,estoi \
        --checkpoint "$method" --format csv > /dev/null
done

echo "== sekit runs list" >&2
"$sekit" runs list --limit 6

# The latest score run of each checkpoint (the demo may have run before: names repeat, ids do not).
latest() { "$sekit" runs list --kind score --filter "name = '$1'" --limit 1 --format csv | tail -n +2 | cut -d, -f1; }
noisy_run="$(latest noisy)"
oracle_run="$(latest oracle-irm)"
echo "== sekit runs diff: is the oracle mask better than the noisy input, and by how much?" >&2
"$sekit" runs diff "$noisy_run" "$oracle_run" --subset all
echo "== sekit runs leaderboard: the table for the paper" >&2
"$sekit" runs leaderboard --corpus "$oracle_run" --format markdown
echo "demo: outputs in $out (catalogue $SEKIT_CATALOG; try: $sekit catalog stats)" >&2
