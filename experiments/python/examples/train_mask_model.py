"""Trains a small mask estimator on SEKit features, records the training in the catalogue, and
writes its masks for the test clips: the walkthrough of docs/train-your-model.md.

    python train_mask_model.py --train train.h5 --valid valid.h5 --test test.h5 \
        --catalog catalog.sqlite --checkpoints ckpt --out pred.h5 [--epochs 5] [--lr 0.01] [--name mask-mlp]
"""
import argparse
import os

import h5py
import torch

import sekit.tracking
from sekit.data import SEKitFeatureDataset, SegmentBatchSampler, collate_batch
from sekit.predictions import write_predictions

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
for name in ("train", "valid", "test", "catalog", "checkpoints", "out"):
    parser.add_argument("--" + name, required=True)
parser.add_argument("--epochs", type=int, default=5)
parser.add_argument("--lr", type=float, default=0.01)
parser.add_argument("--hidden", type=int, default=128)
parser.add_argument("--name", default="mask-mlp")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)

# Inputs: the noisy magnitude normalised with the training statistics (valid.h5 and test.h5 were
# exported with --stats-from train.h5, so they store them); target: the ideal ratio mask.
train = SEKitFeatureDataset(args.train, target="irm", segment_frames=64, seed=args.seed)
valid = SEKitFeatureDataset(args.valid, target="irm")
test = SEKitFeatureDataset(args.test, target=None)
bins = train[0][0].shape[-1]
sampler = SegmentBatchSampler(train, batch_size=16)
loader = torch.utils.data.DataLoader(train, batch_sampler=sampler, collate_fn=collate_batch)
model = torch.nn.Sequential(torch.nn.Linear(bins, args.hidden), torch.nn.ReLU(),
                            torch.nn.Linear(args.hidden, bins), torch.nn.Sigmoid())
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

with h5py.File(args.train, "r") as f:
    features_run = f.attrs["features_run_id"]          # the run that wrote train.h5
os.makedirs(args.checkpoints, exist_ok=True)
params = {"lr": args.lr, "epochs": args.epochs, "hidden": args.hidden, "batch_size": 16, "segment_frames": 64}
with sekit.tracking.start_run(name=args.name, kind="train", catalog=args.catalog, parent=features_run,
                              params=params) as run:
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        total, frames = 0.0, 0
        for noisy, irm, _ in loader:
            loss = torch.nn.functional.mse_loss(model(noisy), irm)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total, frames = total + loss.item() * noisy.shape[0], frames + noisy.shape[0]
        model.eval()
        with torch.no_grad():
            errors = [torch.nn.functional.mse_loss(model(torch.from_numpy(x)), torch.from_numpy(y)).item()
                      for x, y, _ in valid]
        run.log_metrics({"train_loss": total / frames, "valid_loss": sum(errors) / len(errors)}, step=epoch)
        checkpoint = os.path.join(args.checkpoints, f"epoch-{epoch}.pt")
        torch.save(model.state_dict(), checkpoint)
        run.log_artifact(checkpoint, kind="checkpoint")
    # The test clips' masks, [num_frames, bins] each, stamped with this run's id (SEKIT_RUN_ID).
    with torch.no_grad():
        masks = {clip_id: model(torch.from_numpy(noisy)) for noisy, _, clip_id in test}
    write_predictions(args.out, masks, like=args.test, stream="mask")
    print(run.id)
