"""Frames per second that sekit.data delivers: 128-frame segments (noisy and irm, noisy normalised)
in batches of 64, read item by item (today's path) or through SegmentBatchSampler, with torch's
DataLoader at each worker count (0 only, as plain loops, without torch). Run by scripts/bench/loader.sh.

    python scripts/bench/loader.py FEATURES.h5 [--epochs 3] [--workers 0,2] [--batch-size 64] [--segment-frames 128]

Each measurement is whole epochs (every clip once), timed from the loader's creation to the last
batch (worker start-up included); the median of --epochs epochs is reported, each epoch with its
own segments and batches.
"""

import argparse
import os
import platform
import statistics
import sys
import time

import numpy as np

from sekit.data import SEKitFeatureDataset, SegmentBatchSampler, collate_batch

try:
    import torch
    from torch.utils.data import DataLoader, Dataset
except ImportError:
    torch = None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("features")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--workers", default="0,2")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--segment-frames", type=int, default=128)
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    if torch is None:
        print("loader: torch is not installed: 0 workers only (plain loops)", file=sys.stderr)
        workers = [0]
    else:
        torch.set_num_threads(1)
    dataset = SEKitFeatureDataset(args.features, target="irm", segment_frames=args.segment_frames, seed=0)
    frames_per_epoch = len(dataset) * args.segment_frames
    print(f"file: {args.features}: {len(dataset)} clips, {int(dataset.num_frames.sum())} frames "
          f"({int(dataset.num_frames.sum()) * dataset.attrs.get('hop_length', 256) / dataset.attrs.get('sample_rate', 16000) / 3600:.1f} h), "
          f"{dataset.bins} bins, chunk_frames {dataset.chunk_frames}, {os.path.getsize(args.features) / 1e9:.1f} GB")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
          f"python {platform.python_version()}, torch {torch.__version__ if torch else 'absent'}")
    print(f"segments of {args.segment_frames} frames in batches of {args.batch_size}, noisy + irm; "
          f"median of {args.epochs} epochs of {frames_per_epoch} frames")
    paths = {"per-item (today)": per_item, "batch sampler": batch_sampler}
    if torch is not None:
        paths["batch sampler, collate_batch"] = batch_sampler_shared
        paths["random batches, batched read"] = random_batches
    results = {}
    for count in workers:
        for name, path in paths.items():
            rates = []
            for epoch in range(args.epochs):
                dataset.set_epoch(epoch)
                start = time.perf_counter()
                frames = path(dataset, args.batch_size, count, epoch)
                rates.append(frames / (time.perf_counter() - start))
            results[(name, count)] = statistics.median(rates)
            print(f"  {name:30s} workers {count}: {results[(name, count)]:>12,.0f} frames/s "
                  f"(epochs: {', '.join(f'{rate:,.0f}' for rate in rates)})", flush=True)
    for count in workers:
        for name in [name for name in paths if name.startswith("batch sampler")]:
            ratio = results[(name, count)] / results[("per-item (today)", count)]
            print(f"{name} / per-item, {count} workers: {ratio:.2f}x" + ("  (target >= 3x)" if count == 0 else ""))


def per_item(dataset, batch_size, workers, epoch):
    """Today's path: shuffled batches, each item read alone (dataset[i]), collated."""
    if torch is None:
        order = np.random.default_rng([0, epoch]).permutation(len(dataset))
        frames = 0
        for first in range(0, len(order), batch_size):
            items = [dataset[int(i)] for i in order[first:first + batch_size]]
            noisy, _ = (np.stack([item[k] for item in items]) for k in (0, 1))  # what the collate would do
            frames += noisy.shape[0] * noisy.shape[1]
        return frames
    loader = DataLoader(ItemByItem(dataset), batch_size=batch_size, shuffle=True, num_workers=workers,
                        generator=torch.Generator().manual_seed(epoch))
    return consume(loader)


def batch_sampler(dataset, batch_size, workers, epoch):
    """SegmentBatchSampler's batches, each read in file order (read_batch)."""
    sampler = SegmentBatchSampler(dataset, batch_size=batch_size, seed=0)
    sampler.set_epoch(epoch)
    if torch is None:
        frames = 0
        for noisy, target, clip_ids in dataset.batches(sampler):
            frames += noisy.shape[0] * noisy.shape[1]
        return frames
    return consume(DataLoader(dataset, batch_sampler=sampler, num_workers=workers))


def batch_sampler_shared(dataset, batch_size, workers, epoch):
    """The batch sampler with collate_fn=collate_batch: the arrays read become the batch's tensors."""
    sampler = SegmentBatchSampler(dataset, batch_size=batch_size, seed=0)
    sampler.set_epoch(epoch)
    return consume(DataLoader(dataset, batch_sampler=sampler, num_workers=workers, collate_fn=collate_batch))


def random_batches(dataset, batch_size, workers, epoch):
    """Uniformly shuffled batches, read through the batched path (DataLoader calls __getitems__)."""
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=workers,
                        generator=torch.Generator().manual_seed(epoch))
    return consume(loader)


def consume(loader):
    frames = 0
    for noisy, target, clip_ids in loader:
        frames += noisy.shape[0] * noisy.shape[1]
    return frames


if torch is not None:
    class ItemByItem(Dataset):
        """The dataset without its batched read: DataLoader fetches dataset[i] for every item."""

        def __init__(self, dataset):
            self.dataset = dataset

        def __len__(self):
            return len(self.dataset)

        def __getitem__(self, item):
            return self.dataset[item]


if __name__ == "__main__":
    main()
