#!/usr/bin/env bash
# Scale evidence for running SEKit on a cluster, in one run (release build, /usr/bin/time):
#  1. `sekit mix` and `sekit features` throughput with --jobs 1 and --jobs 2 on this machine (best of 2)
#     (CLIPS clips of 10 s, DNS-style, from datasets/fixtures; default 1000 = 2.8 h) and the
#     scaling efficiency (speed-up / 2);
#  2. `sekit catalog merge` of 4 shard catalogues of SHARD_CLIPS clips each (default 250,000): a real
#     4-shard mix + enhance + score of 40 clips, each shard catalogue grown by
#     scripts/bench/expand_shard_catalog.py; folded (default; median of 3 rounds) and --no-fold;
#  3. `sekit features merge` of 4 feature shards of VDS_HOURS each (default 10 h; frames unwritten,
#     the merge reads indexes and statistics only) into virtual datasets, and `--copy` of 4 shards
#     of COPY_HOURS each (default 1 h, frames written) against `cp` of the same bytes (disk speed);
#  4. a projection of the wall time of a 500-hour DNS-style corpus (mix + features) on 1, 16 and 64
#     nodes of 32 cores from the measured per-hour costs, with the assumptions printed
#     (FS_GBPS: shared file-system bandwidth, GB/s, default 2; FILE_CREATES_PER_S: files the
#     metadata server creates per second, default 10000; NODE_GBPS: one node's network link, default
#     1.25 (10 GbE); the measured 2-core efficiency held at 32 cores).
# Usage: scripts/bench/cluster_scale.sh   (env: CLIPS, SHARD_CLIPS, VDS_HOURS, COPY_HOURS, BENCH_DIR)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source scripts/setup.sh
python="${SEKIT_PYTHON:-$(scripts/python-env.sh)}"
fixtures="$("$root/scripts/fixtures.sh")"
clips="${CLIPS:-1000}" shard_clips="${SHARD_CLIPS:-250000}" vds_hours="${VDS_HOURS:-10}" copy_hours="${COPY_HOURS:-1}"
work="${BENCH_DIR:-$root/.build/bench/cluster_scale}"
runs=1
source scripts/bench/lib.sh
sekit="$(release_sekit)"
rm -rf "$work"; mkdir -p "$work"

echo "== 1. mix and features, --jobs 1 and 2 ($clips clips of 10 s)" >&2
mix=(mix --speech "$fixtures/speech" --noise "$fixtures/noise" --count "$clips" --seconds 10 --snr-db=-5:20 --seed 1 --no-catalog)
# ext4 makes the first command creating files after a mass deletion (the rm -rf above) pay seconds
# of system time: an untimed warm-up mix takes that, then each configuration is timed twice (best).
"$sekit" "${mix[@]}" --count 200 --out "$work/warm-up" >/dev/null 2>&1
best() { awk '{ if (NR == 1 || $1 < w) { w = $1; c = $2 } } END { print w, c }'; }
# (Rounds write new folders and files: deleting one between rounds would bring the penalty back;
# and each starts after a sync, so no round pays for the write-back of the one before.)
read -r mix1_wall mix1_cpu < <(for r in 1 2; do sync; timed mix-j1 "$sekit" "${mix[@]}" --jobs 1 --out "$work/corpus-j1-$r"; done | best)
read -r mix2_wall mix2_cpu < <(for r in 1 2; do sync; timed mix-j2 "$sekit" "${mix[@]}" --jobs 2 --out "$work/corpus-j2-$r"; done | best)
cmp -s "$work/corpus-j1-1/manifest.jsonl" "$work/corpus-j2-1/manifest.jsonl" || { echo "cluster_scale: --jobs changed the corpus" >&2; exit 1; }
feat=(features --corpus "$work/corpus-j1-1" --targets clean,irm --no-catalog)
read -r feat1_wall feat1_cpu < <(for r in 1 2; do sync; timed features-j1 "$sekit" "${feat[@]}" --jobs 1 --out "$work/features-j1-$r.h5"; done | best)
read -r feat2_wall feat2_cpu < <(for r in 1 2; do sync; timed features-j2 "$sekit" "${feat[@]}" --jobs 2 --out "$work/features-j2-$r.h5"; done | best)
corpus_bytes=$(du -sb "$work/corpus-j1-1" | cut -f1)
features_bytes=$(stat -c %s "$work/features-j1-1.h5")
rm -rf "$work"/corpus-j* "$work"/features-j*.h5 "$work/warm-up"

echo "== 2. catalog merge of 4 shard catalogues of $shard_clips clips" >&2
small="$work/small"
mkdir -p "$small"
for i in 1 2 3 4; do
    "$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" --count 40 --seconds 4 --snr-db=-5:20 --seed 2 \
        --out "$small/corpus" --shard "$i/4" --catalog "$small/shard-$i.sqlite" >/dev/null 2>&1
done
for i in 1 2 3 4; do
    "$sekit" enhance --method wiener --corpus "$small/corpus" --out "$small/enhanced" --shard "$i/4" --catalog "$small/shard-$i.sqlite" >/dev/null 2>&1
    "$sekit" score --corpus "$small/corpus" --enhanced "$small/enhanced" --metrics snr,sisdr,stoi --shard "$i/4" \
        --catalog "$small/shard-$i.sqlite" >/dev/null 2>&1
    cp "$small/shard-$i.sqlite" "$work/big-$i.sqlite"
    python3 scripts/bench/expand_shard_catalog.py "$work/big-$i.sqlite" "$shard_clips" >&2
done
big=("$work"/big-{1,2,3,4}.sqlite)
# The inputs' pages reach the disk first (their write-back is not the merge's work); three rounds
# of the folded merge, each into a new OUT, give its median and spread.
sync
median3() { sort -n | awk '{ w[NR] = $1; c[NR] = $2 } END { print w[2], c[2], w[1], w[3] }'; }
read -r fold_wall fold_cpu fold_min fold_max < <(for r in 1 2 3; do
    rm -f "$work"/merged.sqlite*
    timed catalog-merge "$sekit" catalog merge "$work/merged.sqlite" "${big[@]}"
done | median3)
read -r nofold_wall nofold_cpu _ < <(timed catalog-merge-no-fold "$sekit" catalog merge --no-fold "$work/merged-no-fold.sqlite" "${big[@]}")
merged_clips=$(sqlite3 "$work/merged.sqlite" "SELECT count(*) FROM clips")
merged_scores=$(sqlite3 "$work/merged.sqlite" "SELECT count(*) FROM clip_scores")
rm -f "${big[@]}" "$work"/merged*.sqlite*

echo "== 3. features merge: 4 shards of $vds_hours h (virtual) and of $copy_hours h (--copy)" >&2
for i in 1 2 3 4; do
    "$sekit" features --corpus "$small/corpus" --out "$small/features-$i.h5" --shard "$i/4" --no-catalog >/dev/null 2>&1
    "$python" scripts/bench/grow_feature_shard.py "$small/features-$i.h5" "$work/vds-$i.h5" "$vds_hours" --sparse >&2
    "$python" scripts/bench/grow_feature_shard.py "$small/features-$i.h5" "$work/copy-$i.h5" "$copy_hours" >&2
done
read -r vds_wall vds_cpu _ < <(timed features-merge-vds "$sekit" features merge "$work/vds.h5" "$work"/vds-{1,2,3,4}.h5)
sync
read -r copy_wall copy_cpu _ < <(timed features-merge-copy "$sekit" features merge --copy "$work/copy.h5" "$work"/copy-{1,2,3,4}.h5)
copy_bytes=$(stat -c %s "$work/copy.h5")
mkdir -p "$work/cp"
sync
read -r cp_wall cp_cpu _ < <(timed cp sh -c "cp $work/copy-1.h5 $work/copy-2.h5 $work/copy-3.h5 $work/copy-4.h5 $work/cp/ && sync")
rm -rf "$work"/vds*.h5 "$work"/copy*.h5 "$work/cp"

"$python" - "$clips" "$mix1_wall" "$mix1_cpu" "$mix2_wall" "$mix2_cpu" "$feat1_wall" "$feat1_cpu" "$feat2_wall" "$feat2_cpu" \
    "$corpus_bytes" "$features_bytes" "$shard_clips" "$fold_wall" "$fold_cpu" "$nofold_wall" "$nofold_cpu" "$merged_clips" "$merged_scores" \
    "$vds_hours" "$vds_wall" "$copy_hours" "$copy_wall" "$copy_bytes" "$cp_wall" "${FS_GBPS:-2}" "${FILE_CREATES_PER_S:-10000}" "${NODE_GBPS:-1.25}" \
    "$fold_min" "$fold_max" <<'PY'
import sys
a = sys.argv[1:]
clips = int(a[0]); m1w, m1c, m2w, m2c, f1w, f1c, f2w, f2c = map(float, a[1:9])
corpus_bytes, features_bytes = int(a[9]), int(a[10])
shard_clips = int(a[11]); fold_w, fold_c, nofold_w, nofold_c = map(float, a[12:16]); merged_clips, merged_scores = int(a[16]), int(a[17])
vds_h, vds_w, copy_h, copy_w = float(a[18]), float(a[19]), float(a[20]), float(a[21]); copy_bytes = int(a[22]); cp_w = float(a[23])
fs_gbps, creates, node_gbps = float(a[24]), float(a[25]), float(a[26])
fold_min, fold_max = float(a[27]), float(a[28])
hours = clips * 10 / 3600
print(f"1. {clips} clips of 10 s ({hours:.2f} h), whole processes:")
for name, w1, c1, w2 in (("mix", m1w, m1c, m2w), ("features", f1w, f1c, f2w)):
    print(f"   {name:8s} --jobs 1: {w1:6.2f} s wall ({hours * 3600 / w1:7.0f}x real time), {c1:6.2f} s CPU; "
          f"--jobs 2: {w2:6.2f} s wall, speed-up {w1 / w2:.2f}x, efficiency {w1 / w2 / 2:.0%}")
print(f"   output: corpus {corpus_bytes / hours / 1e9:.2f} GB per audio hour (3 PCM16 stems), features (noisy, clean, irm) {features_bytes / hours / 1e9:.2f} GB per hour")
print(f"2. catalog merge of 4 x {shard_clips} clips ({merged_clips} clips, {merged_scores} clip scores after the fold):")
print(f"   folded {fold_w:.1f} s wall, median of 3 ({fold_min:.1f}-{fold_max:.1f} s; {fold_c:.1f} s CPU); --no-fold {nofold_w:.1f} s wall ({nofold_c:.1f} s CPU); target < 30 s")
print(f"3. features merge of 4 x {vds_h:g} h into virtual datasets: {vds_w:.2f} s wall (target < 1 s)")
print(f"   --copy of 4 x {copy_h:g} h ({copy_bytes / 1e9:.2f} GB): {copy_w:.1f} s = {copy_bytes / copy_w / 1e6:.0f} MB/s; "
      f"cp + sync of the same shards: {cp_w:.1f} s = {copy_bytes / cp_w / 1e6:.0f} MB/s (the merge at {cp_w / copy_w:.0%} of cp's speed)")
# 4. Projection: 500 h of 10 s clips, mix + features, CPU from --jobs 1, the 2-core efficiency held.
target_h = 500
cpu_s = target_h / hours * (m1c + f1c)
eff = min(m1w / m2w, f1w / f2w) / 2
out_bytes = target_h / hours * (corpus_bytes + features_bytes)
files = target_h * 3600 / 10 * 3
print(f"4. projection for {target_h} h (mix + features; {cpu_s / 3600:.1f} CPU hours measured here; {out_bytes / 1e12:.2f} TB written; {files:.0f} files)")
print(f"   assumptions: 32 cores per node at {eff:.0%} efficiency (the 2-core figure), shared file system {fs_gbps:g} GB/s, "
      f"{creates:g} file creates/s, {node_gbps:g} GB/s per node's link, inputs read once per clip from the page cache, merges as measured")
for nodes in (1, 16, 64):
    compute = cpu_s / (nodes * 32 * eff)
    io = out_bytes / (min(fs_gbps, nodes * node_gbps) * 1e9)
    meta = files / creates
    merge = fold_w * (target_h * 360 / (4 * shard_clips)) + vds_w
    wall = max(compute, io, meta) + merge
    bound = max((compute, "CPU"), (io, "file-system bandwidth"), (meta, "file creation"))[1]
    print(f"   {nodes:3d} node(s): {wall / 60:7.1f} min (CPU {compute / 60:.1f} min, writes {io / 60:.1f} min, "
          f"file creation {meta / 60:.1f} min, merges {merge:.0f} s; bound by {bound})")
PY
