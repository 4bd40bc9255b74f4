#!/usr/bin/env bash
# SEKit's main job on the built-in demo corpus, from a fresh machine, in a few minutes:
#   1. builds a release sekit (installing system packages first if missing),
#   2. makes the demo corpus (espeak-ng speech: four voices at their own rates; SEKit-generated
#      white, pink and brown noise) under datasets/demo/generated,
#   3. inspects it (sekit info) and catalogues it (sekit catalog import),
#   4. mixes a noisy corpus at -5...10 dB, one or two noises per clip, with a speaker-disjoint
#      train/test split (sekit mix) and prints its SNR histogram,
#   5. exports STFT features and the ideal ratio mask to HDF5 and prints the layout (sekit features),
#   6. resynthesises the oracle-mask output from the features (sekit synthesize),
#   7. enhances the test clips with every classical baseline (spectral subtraction, MMSE-STSA,
#      log-MMSE, Wiener) and the oracle masks (IRM, IBM, PSM) (sekit enhance),
#   8. scores the noisy inputs and every output (sekit score: SNR, segSNR, SI-SDR, STOI, ESTOI,
#      and PESQ with CSIG/CBAK/COVL, run by the project's Python environment, which the demo sets
#      up itself the first time: scripts/python-env.sh),
#   9. prints the leaderboard, finds the best classical method (sekit runs best) and tests it
#      against the noisy input (sekit runs diff: paired bootstrap CI, Wilcoxon, Holm),
#  10. draws one test clip's noisy, enhanced and clean spectrograms (sekit plot) and writes the
#      HTML report of every run (sekit report), and says where everything is.
# Everything it writes is under demo-out/ (and the catalogue demo-out/catalog.sqlite).
#
# scripts/demo.sh --train also closes the model loop (docs/crnn-recipe.md): it makes (once per machine)
# the cached training environment with PyTorch (scripts/python-env.sh --train), trains the reference
# CRNN (experiments/crnn) for 3 epochs on the demo corpus on CPU, exports every epoch to ONNX, enhances
# the test clips with each (sekit enhance --model), scores them, and ends on the leaderboard of the
# checkpoints by epoch beside noisy, the classical baselines and the oracle masks (sekit runs
# leaderboard --group-by params.epoch), the best epoch tested against the last and the best baseline.
# The demo corpus has no validation split: --train validates (and picks its best epoch) on the test
# clips, which a real experiment must never do.
#
# Environment: SEKIT_BIN (use this sekit binary instead of building one), SEKIT_DEMO_OUT (output
# folder), SEKIT_DEMO_CLIPS (clips to mix instead of the recipe's 48), SEKIT_PYTHON (an interpreter
# with the packages of scripts/requirements.txt to use instead of setting one up), SEKIT_VENV (where
# scripts/python-env.sh makes the environment; default .build/venv), SEKIT_DEMO_PYTHON=0 (leave the
# Python metrics out: no environment is made).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
started=$SECONDS
train=""
for argument in "$@"; do
    case "$argument" in
        --train) train=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "demo: unknown argument $argument (scripts/demo.sh [--train])" >&2; exit 2 ;;
    esac
done
if [[ -n "$train" && "${SEKIT_DEMO_PYTHON:-1}" == 0 ]]; then
    echo "demo: --train needs the Python environment (sekit enhance --model runs ONNX Runtime there); leave SEKIT_DEMO_PYTHON=0 out" >&2
    exit 2
fi
source scripts/setup.sh

sekit="$(scripts/release-binary.sh)"
out="${SEKIT_DEMO_OUT:-$root/demo-out}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
export SEKIT_CATALOG="$out/catalog.sqlite"
count=()
[[ -n "${SEKIT_DEMO_CLIPS:-}" ]] && count=(--count "$SEKIT_DEMO_CLIPS")

echo "== demo corpus" >&2
datasets/demo/make_demo_corpus.sh "$sekit" "$root/datasets/demo/generated"

echo "== sekit info (a few files)" >&2
"$sekit" info datasets/demo/generated/speech/en-us_m3/utt00.wav datasets/demo/generated/noise/pink.wav

echo "== sekit catalog import" >&2
"$sekit" catalog import --kind speech --corpus demo-speech --speaker-pattern '^([^/]+)/' datasets/demo/generated/speech
"$sekit" catalog import --kind noise --corpus demo-noise datasets/demo/generated/noise

echo "== sekit mix (recipe datasets/recipes/demo.yaml, catalogued corpora)" >&2
# Run it again and it resumes: finished clips are not redone (--overwrite replaces only a
# different mix, such as one an older version of this demo left).
"$sekit" mix --recipe datasets/recipes/demo.yaml --speech corpus:demo-speech --noise corpus:demo-noise \
    --name demo --out "$out/corpus" --overwrite "${count[@]}"

echo "== sekit features: STFT magnitudes, clean targets and the ideal ratio mask into HDF5" >&2
"$sekit" features --corpus "$out/corpus" --out "$out/features.h5" --targets clean,irm,noisy_phase --overwrite
echo "layout (h5dump -H, groups and datasets):"
h5dump -H "$out/features.h5" | awk '/^ *(GROUP|DATASET)/ {print "  " $0; want = /DATASET/} /DATASPACE/ && want {print "  " $0; want = 0}'
echo "  root attributes: $(h5dump -H "$out/features.h5" | awk '/^   ATTRIBUTE/ {gsub(/"/, "", $2); printf "%s ", $2}')"

echo "== sekit synthesize: the oracle ratio mask back to audio from the feature file" >&2
"$sekit" synthesize --features "$out/features.h5" --dataset irm --kind mask --out "$out/oracle-irm"

# PESQ and the composite measures run the ITU-T reference code in the project's Python
# environment, which the demo sets up (scripts/python-env.sh: a virtual environment with the
# packages of scripts/requirements.txt, made once and reused), unless SEKIT_PYTHON names one.
metrics=snr,segsnr,sisdr,stoi,estoi
python="" why=""
if [[ "${SEKIT_DEMO_PYTHON:-1}" == 0 ]]; then
    why="SEKIT_DEMO_PYTHON=0"
elif [[ -n "${SEKIT_PYTHON:-}" ]]; then
    python="$SEKIT_PYTHON"
else
    echo "== the project's Python environment, for PESQ and CSIG/CBAK/COVL (scripts/python-env.sh)" >&2
    python="$(scripts/python-env.sh)" || { python=""; why="scripts/python-env.sh failed (see above; it needs python3-venv and the network once)"; }
fi
if [[ -n "$python" ]] && [[ -x "$python" ]] && "$python" -c "import pesq" 2>/dev/null; then
    export SEKIT_PYTHON="$python"
    metrics=pesq_wb,csig,cbak,covl,$metrics
    echo "== PESQ and CSIG/CBAK/COVL included (Python environment $python)" >&2
else
    [[ -n "$why" ]] || why="$python cannot import pesq"
    echo "== PESQ and CSIG/CBAK/COVL left out: $why (scripts/python-env.sh sets the environment up)" >&2
fi
score() { # NAME [--enhanced DIR]
    local name="$1"; shift
    "$sekit" score --corpus "$out/corpus" --split test --metrics "$metrics" --checkpoint "$name" --jobs 2 \
        --per-clip "$out/scores/$name.csv" "$@" --format csv > /dev/null
}
mkdir -p "$out/scores"

echo "== sekit score: the noisy test inputs, and the oracle-mask resynthesis" >&2
score noisy
score oracle-irm-synth --enhanced "$out/oracle-irm"

classical=(specsub mmse-stsa logmmse wiener)
oracles=(oracle-irm oracle-ibm oracle-psm)
echo "== sekit enhance + score: classical baselines (${classical[*]}) and oracle masks (${oracles[*]})" >&2
for method in "${classical[@]}" "${oracles[@]}"; do
    "$sekit" enhance --method "$method" --corpus "$out/corpus" --split test --out "$out/enhanced/$method" --jobs 2
    score "$method" --enhanced "$out/enhanced/$method"
done

checkpoints=()
if [[ -n "$train" ]]; then
    echo "== --train: the training environment with PyTorch (scripts/python-env.sh --train)" >&2
    train_python="${SEKIT_TRAIN_PYTHON:-$(scripts/python-env.sh --train)}"
    echo "== --train: test features normalised with the training statistics (the demo's validation set: see above)" >&2
    "$sekit" features --corpus "$out/corpus" --split test --stats-from "$out/features.h5" --targets clean,irm,noisy_phase \
        --out "$out/features-test.h5" --overwrite > /dev/null
    echo "== --train: the reference CRNN, 3 epochs on CPU (experiments/crnn/train.py)" >&2
    rm -rf "$out/crnn"
    SEKIT_BINARY="$sekit" "$train_python" experiments/crnn/train.py --features "$out/features.h5" --valid "$out/features-test.h5" --out "$out/crnn" \
        --epochs 3 --device cpu --catalog "$SEKIT_CATALOG"
    for model in "$out"/crnn/epoch-*.onnx; do
        [[ "$model" == *.stream.onnx ]] && continue
        epoch="$(basename "$model" .onnx)"; epoch="${epoch#epoch-}"
        checkpoints+=("crnn-epoch$epoch")
        echo "== sekit enhance --model: epoch $epoch on the test clips, and its score" >&2
        "$sekit" enhance --model "$model" --corpus "$out/corpus" --split test --out "$out/enhanced/crnn" --overwrite --jobs 2
        score "crnn-epoch$epoch" --enhanced "$out/enhanced/crnn/epoch-$epoch"
    done
fi

echo "== sekit runs list" >&2
"$sekit" runs list --kind score --limit 9

# The latest score run of each checkpoint (the demo may have run before: names repeat, ids do not).
latest() { "$sekit" runs list --kind score --filter "name = '$1'" --limit 1 --format csv | tail -n +2 | cut -d, -f1; }
noisy_run="$(latest noisy)"
echo "== sekit runs leaderboard: the table for the paper" >&2
"$sekit" runs leaderboard --corpus "$noisy_run" --format markdown
if [[ -n "$train" ]]; then
    echo "== sekit runs leaderboard --group-by params.epoch: the checkpoints by epoch, the best against the last and the best baseline" >&2
    board="$("$sekit" runs leaderboard --corpus "$noisy_run" --group-by params.epoch)"
    echo "$board"
    # The two comparisons the board names (tested by: sekit runs diff A B).
    grep -o 'sekit runs diff [0-9a-f-]* [0-9a-f-]*' <<<"$board" | while read -r _ _ _ a b; do
        "$sekit" runs diff "$a" "$b" --subset all
    done
fi

rank_metric=stoi
[[ "$metrics" == pesq_wb* ]] && rank_metric=pesq_wb
names="$(printf "'%s'," "${classical[@]}")"
best="$("$sekit" runs best --metric "$rank_metric" --corpus "$noisy_run" --filter "name in (${names%,})" --format csv | sed -n 2p)"
best_run="$(cut -d, -f2 <<<"$best")"
best_name="$(cut -d, -f3 <<<"$best")"
echo "== sekit runs diff: the best classical method by $rank_metric ($best_name) against the noisy input" >&2
"$sekit" runs diff "$noisy_run" "$best_run" --subset all

echo "== sekit plot: one test clip, noisy / $best_name / clean" >&2
clip="$(awk -F, 'NR == 2 {print $1}' "$out/scores/$best_name.csv")"
mkdir -p "$out/figures"
"$sekit" plot "$out/corpus/noisy/$clip.wav" "$out/enhanced/$best_name/$clip.wav" "$out/corpus/clean/$clip.wav" \
    --labels "noisy,$best_name,clean" --kind both --title "$clip: noisy, $best_name, clean" --out "$out/figures/$clip.png"

echo "== sekit report: every run on one page" >&2
runs=()
for name in noisy "${classical[@]}" "${oracles[@]}" oracle-irm-synth "${checkpoints[@]}"; do runs+=("$(latest "$name")"); done
"$sekit" report "${runs[@]}" --out "$out/report.html" --worst 5

elapsed="$(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"
cat >&2 <<EOF
== demo: done in $elapsed (the release build included). Where everything is:
  $out/corpus/            the noisy corpus (noisy/, clean/, noise/, manifest.jsonl; mix.json)
  $out/features.h5        STFT features and the ideal ratio mask (read with the sekit Python package: sekit.data)
  $out/enhanced/METHOD/   classical baselines and oracle masks; $out/oracle-irm/ the mask resynthesised
  $out/scores/NAME.csv    per-clip scores of every run
  $out/figures/$clip.png  spectrograms and levels of one clip
  $out/report.html        the report: leaderboard, comparisons, charts, the worst clips with audio
                          (with --train: the checkpoints by epoch, $out/crnn/ their .pt and .onnx files)
                          (open it in a browser; it needs no network)
  $SEKIT_CATALOG  the catalogue. To look around in it, paste:
    export SEKIT_CATALOG=$(printf %q "$SEKIT_CATALOG")
    $(printf %q "$sekit") runs list
    $(printf %q "$sekit") runs leaderboard --corpus $noisy_run
    $(printf %q "$sekit") catalog stats
EOF
