#!/usr/bin/env bash
# Measures how fast sekit.data feeds training: frames per second of 128-frame segments in batches
# of 64 (noisy normalised, irm) from a 10-hour feature file, read item by item (today's path:
# DataLoader(dataset, batch_size=64, shuffle=True), one dataset[i] per item) against the batch
# sampler (DataLoader(dataset, batch_sampler=SegmentBatchSampler(...)): each batch read in file
# order; with torch's default collate and with collate_fn=collate_batch), and uniformly random
# batches through the batched read, with 0 and 2 DataLoader workers (scripts/bench/loader.py does
# the timing; docs/benchmarks.md has the figures). Without torch only the 0-worker rows are
# measured (plain loops over the same reads). scripts/bench/loader_gpu.py (a GPU) measures the
# share of a CRNN's training rate each loader sustains.
#
# The feature file is made once and kept: HOURS (default 10) of four-second clips mixed from
# datasets/fixtures by `sekit mix`, exported by `sekit features --targets irm` (float32, no
# compression: the defaults), under .build/bench/loader/ (the mixed WAVs are deleted afterwards).
# Python: the training environment (scripts/python-env.sh --train, with torch), or $SEKIT_TRAIN_PYTHON;
# SEKIT_BENCH_TORCH=0 leaves torch's DataLoader rows out.
#   scripts/bench/loader.sh [HOURS=10] [EPOCHS=3] [WORKERS=0,2] [SEKIT=path/to/sekit]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source scripts/setup.sh
python="${SEKIT_TRAIN_PYTHON:-$(scripts/python-env.sh --train)}"
fixtures="$("$root/scripts/fixtures.sh")"
hours="${HOURS:-10}"
work="$root/.build/bench/loader"
runs=1
source scripts/bench/lib.sh  # release_sekit
features="$work/features-${hours}h.h5"
mkdir -p "$work"
if [[ ! -f "$features" ]]; then
    sekit="$(release_sekit)"
    clips=$("$python" -c "print(round($hours * 3600 / 4))")
    corpus="$work/corpus-${hours}h"
    echo "loader: mixing $clips four-second clips ($hours h) from $fixtures" >&2
    "$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --count "$clips" --seconds 4 \
        --snr-db=-5:20 --seed 1 --out "$corpus" --no-catalog >/dev/null
    echo "loader: exporting noisy features and the ideal ratio mask to $features" >&2
    "$sekit" features --corpus "$corpus" --out "$features" --targets irm --no-catalog >/dev/null
    rm -rf "$corpus"
fi
# The file is read from the page cache on every side (it fits in memory: 2 streams of 2.3 GB at 10 h).
cat "$features" >/dev/null
PYTHONPATH="$root/experiments/python${PYTHONPATH:+:$PYTHONPATH}" \
    "$python" scripts/bench/loader.py "$features" --epochs "${EPOCHS:-3}" --workers "${WORKERS:-0,2}"
