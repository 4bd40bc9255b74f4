"""How much of a GPU's compute-bound training rate sekit.data's loaders sustain, for a CRNN of about
1.5M parameters on 128-frame segments of 257 bins in batches of 64 (noisy magnitudes in, an ideal
ratio mask out, MSE).

    python scripts/bench/loader_gpu.py FEATURES.h5 [--workers 0,4,8] [--steps 150]

The compute-bound rate: training steps on one batch kept on the GPU. Each loader row: the same
steps fed by a DataLoader (pinned memory, non-blocking copies), as frames per second and as a
fraction of the compute-bound rate. Paths: per-item reads (today's: DataLoader(dataset,
batch_size=64, shuffle=True) over the dataset without its batched read), and SegmentBatchSampler
with collate_batch.
"""

import argparse
import time

import torch
from torch import nn
from torch.utils.data import DataLoader

from loader import ItemByItem  # scripts/bench/loader.py: the dataset without its batched read
from sekit.data import SEKitFeatureDataset, SegmentBatchSampler, collate_batch


class CRNN(nn.Module):
    """Three conv blocks (3x3, ReLU, frequency pooling by 2) and a GRU over time, a sigmoid mask."""

    def __init__(self, bins=257, channels=(16, 32, 32), hidden=320):
        super().__init__()
        layers, width, previous = [], bins, 1
        for count in channels:
            layers += [nn.Conv2d(previous, count, 3, padding=1), nn.BatchNorm2d(count), nn.ReLU(), nn.MaxPool2d((1, 2))]
            previous, width = count, width // 2
        self.conv = nn.Sequential(*layers)
        self.gru = nn.GRU(previous * width, hidden, batch_first=True)
        self.out = nn.Linear(hidden, bins)

    def forward(self, x):  # [batch, frames, bins]
        h = self.conv(x.unsqueeze(1))                       # [batch, channels, frames, bins / 8]
        h = h.permute(0, 2, 1, 3).flatten(2)               # [batch, frames, channels * bins / 8]
        return torch.sigmoid(self.out(self.gru(h)[0]))


def train(model, optimiser, batches, steps, device):
    """Frames per second of `steps` training steps on `batches` (an iterable of (noisy, irm, ...))."""
    frames, done, start = 0, 0, None
    while done < steps:
        for noisy, irm, *_ in batches:
            noisy, irm = noisy.to(device, non_blocking=True), irm.to(device, non_blocking=True)
            loss = nn.functional.mse_loss(model(noisy), irm)
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            done += 1
            if done == 10:  # warm-up (workers starting, cuDNN choosing kernels) not counted
                synchronize(device)
                start, frames = time.perf_counter(), 0
            elif done > 10:
                frames += noisy.shape[0] * noisy.shape[1]
            if done == steps:
                break
    synchronize(device)
    return frames / (time.perf_counter() - start)


def synchronize(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("features")
    parser.add_argument("--workers", default="0,4,8")
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    device = torch.device(args.device)
    torch.backends.cudnn.benchmark = True
    dataset = SEKitFeatureDataset(args.features, target="irm", segment_frames=128, seed=0)
    model = CRNN(dataset.bins).to(device)
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)
    name = torch.cuda.get_device_name() if device.type == "cuda" else str(device)
    print(f"CRNN: {sum(p.numel() for p in model.parameters()):,} parameters on {name}; "
          f"torch {torch.__version__}")
    fixed = next(iter(DataLoader(dataset, batch_size=64, shuffle=True)))
    on_gpu = [(fixed[0].to(device), fixed[1].to(device))] * args.steps
    bound = train(model, optimiser, on_gpu, args.steps, device)
    print(f"compute-bound (one batch kept on the GPU): {bound:,.0f} frames/s")
    for workers in [int(w) for w in args.workers.split(",") if w]:  # "" measures the compute-bound rate alone
        extra = {"persistent_workers": False} if workers else {}
        loaders = {
            "per-item (today)": DataLoader(ItemByItem(dataset), batch_size=64, shuffle=True, num_workers=workers,
                                           pin_memory=True, **extra),
            "batch sampler + collate_batch": DataLoader(dataset, batch_sampler=SegmentBatchSampler(dataset, 64),
                                                        collate_fn=collate_batch, num_workers=workers,
                                                        pin_memory=True, **extra),
        }
        for name, loader in loaders.items():
            rate = train(model, optimiser, loader, args.steps, device)
            print(f"  {name:30s} workers {workers}: {rate:>12,.0f} frames/s = {rate / bound:6.1%} of compute-bound",
                  flush=True)


if __name__ == "__main__":
    main()
