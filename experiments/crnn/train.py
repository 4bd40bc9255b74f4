"""Trains the CRNN mask estimator on a SEKit feature file; writes a checkpoint and its ONNX exports per epoch.

    python experiments/crnn/train.py --features FILE.h5 --out DIR --epochs N [--catalog PATH]
        [--device auto|cpu|cuda] [--config FILE] [--valid FILE.h5]

Writes DIR/epoch-K.pt, DIR/epoch-K.onnx and DIR/epoch-K.stream.onnx (K from 1), and DIR/best.{pt,onnx,
stream.onnx} with DIR/best.json for the best epoch by the config's select_key. Validation: the file's
`valid` split, or every clip of --valid FILE.h5 (normalised with FILE.h5's training statistics), or, when
the file has no valid split, a seeded `holdout_fraction` of its training clips, by speaker where the
corpus names them (DIR/holdout.json lists them; the run's params say so). The run is
recorded in the catalogue (kind train, parent: the feature file's features run). See docs/crnn-recipe.md.
"""

import argparse
import copy
import json
import os
import shutil
import sys
import time

import h5py
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
# The recipe's modules, then this clone's `sekit` package (experiments/python): the cached training
# environment (scripts/python-env.sh --train) is shared by every clone and holds no `sekit` of its own.
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)

import sekit.tracking  # noqa: E402
from sekit.data import (SEKitFeatureDataset, SegmentBatchSampler, StatisticsMismatchError, collate_batch,  # noqa: E402
                        read_index)

from config import check_framing, flat_params, load_config  # noqa: E402
from export import metadata, write_onnx  # noqa: E402
from holdout import hold_out, speakers_of  # noqa: E402
from model import CRNN  # noqa: E402
from selection import Selection  # noqa: E402
from validate import Validator, corpus_clips  # noqa: E402


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features", required=True, help="the training feature file (train and valid splits)")
    parser.add_argument("--out", required=True, help="the folder of checkpoints and ONNX exports")
    parser.add_argument("--epochs", type=int, required=True, help="the most epochs to train (early stopping may end sooner)")
    parser.add_argument("--catalog", help="the catalogue (default: $SEKIT_CATALOG, else experiments/catalog.sqlite)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                        help="auto: CUDA where present (mixed precision there), else the CPU")
    parser.add_argument("--config", help="a JSON file overriding experiments/crnn/config.json's keys")
    parser.add_argument("--valid", help="validate on every clip of this feature file instead of the valid split")
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error(f"--epochs {args.epochs}: at least 1")
    return args


def pick_device(name):
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda: torch sees no CUDA device (torch.cuda.is_available() is false)")
    return torch.device(name)


def save_atomically(write, path):
    temporary = path + ".tmp"
    write(temporary)
    os.replace(temporary, path)


def valid_loss(model, clips, device, autocast):
    """Mean squared error over every frame and bin of the valid clips (whole clips, one at a time)."""
    total, count = 0.0, 0
    masks = {}
    with torch.no_grad(), autocast():
        for noisy, target, clip_id in clips:
            mask = model(torch.from_numpy(noisy).to(device)[None]).float()[0]
            total += torch.sum((mask - torch.from_numpy(target).to(device)) ** 2).item()
            count += target.size
            masks[clip_id] = mask.cpu().numpy()
    return total / max(count, 1), masks


def open_features(args, config):
    """(features run id, train dataset, valid dataset, how validation was chosen: params to record) of the
    command line's feature files. Without --valid and without a valid split in --features, a seeded
    fraction of the training clips is held out (by speaker where the corpus names them: holdout.py)."""
    with h5py.File(args.features, "r") as f:
        features_run = f.attrs.get("features_run_id", "")
        features_run = features_run.decode() if isinstance(features_run, bytes) else str(features_run)
        corpus = f.attrs.get("corpus", "")
        corpus = corpus.decode() if isinstance(corpus, bytes) else str(corpus)
    index = read_index(args.features)
    training = [str(c) for c in index["clip_id"][index["split"] == "train"]]
    if not training:
        raise SystemExit(f"{args.features}: no clips in the train split")
    held, chosen = None, {"validation": "valid-file" if args.valid else "valid-split"}
    if not args.valid and not np.any(index["split"] == "valid"):
        fraction = config["holdout_fraction"]
        held, kept, by = hold_out(training, fraction, config["seed"], speakers_of(corpus, training))
        chosen = {"validation": "holdout", "holdout_by": by, "holdout_clips": len(held), "holdout_fraction": fraction}
        print(f"crnn: {args.features} has no valid split: holding out {len(held)} of its {len(training)} training clips "
              f"(by {by}, seed {config['seed']}, holdout_fraction {fraction}) for validation; the run records them "
              f"(holdout.json)", file=sys.stderr)
    train = SEKitFeatureDataset(args.features, target=config["target"], split="train", clip_ids=None if held is None else kept,
                                segment_frames=config["segment_frames"], seed=config["seed"])
    check_framing(config, train.attrs, args.features)
    if args.valid:
        valid = SEKitFeatureDataset(args.valid, target=config["target"], stats_from=args.features)
    elif held is not None:
        valid = SEKitFeatureDataset(args.features, target=config["target"], split="train", clip_ids=held)
    else:
        valid = SEKitFeatureDataset(args.features, target=config["target"], split="valid")
    chosen["held_out"] = held
    return features_run, train, valid, chosen


def main(argv=None):
    args = arguments(argv)
    config = load_config(args.config)
    device = pick_device(args.device)
    torch.manual_seed(config["seed"])
    np.random.seed(config["seed"])
    try:
        features_run, train, valid, validation = open_features(args, config)
        valid_clips = [valid[i] for i in range(len(valid))]
        scored = [clip_id for _, _, clip_id in valid_clips[:config["valid_clips"]]]
        validator = Validator(valid.attrs, config["valid_metrics"]) if config["valid_metrics"] else None
        paths = corpus_clips(valid.attrs.get("corpus", ""), scored) if validator else {}
    except (OSError, KeyError, ValueError, StatisticsMismatchError) as error:  # each names its file and the problem
        raise SystemExit(f"crnn: {error}")
    mean, std = train.noisy_stats

    sampler = SegmentBatchSampler(train, batch_size=config["batch_size"], seed=config["seed"])
    loader = torch.utils.data.DataLoader(train, batch_sampler=sampler, collate_fn=collate_batch,
                                         num_workers=config["num_workers"])
    model = CRNN(train.bins, **config["model"]).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
    mixed = device.type == "cuda"
    autocast = lambda: torch.autocast("cuda", dtype=torch.bfloat16, enabled=mixed)  # noqa: E731
    selection = Selection(config["select_key"], config["select_mode"], config["patience"], config["min_delta"])
    os.makedirs(args.out, exist_ok=True)
    held_out = validation.pop("held_out")
    params = dict(flat_params(config), device=device.type, features=os.path.abspath(args.features), **validation)
    with sekit.tracking.start_run(name=config["name"], kind="train", catalog=args.catalog,
                                  parent=features_run or None, params=params) as run:
        if held_out is not None:
            holdout = os.path.join(args.out, "holdout.json")
            save_atomically(lambda path: _write_json({"clip_ids": held_out, **validation}, path), holdout)
            run.log_artifact(holdout, kind="holdout")
        for epoch in range(1, args.epochs + 1):
            started = time.perf_counter()
            sampler.set_epoch(epoch - 1)
            model.train()
            total, frames = 0.0, 0
            for noisy, target, _ in loader:
                noisy, target = noisy.to(device, non_blocking=True), target.to(device, non_blocking=True)
                with autocast():
                    loss = torch.nn.functional.mse_loss(model(noisy).float(), target)
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                if config["grad_clip"]:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), config["grad_clip"])
                optimizer.step()
                total += loss.item() * noisy.shape[0] * noisy.shape[1]
                frames += noisy.shape[0] * noisy.shape[1]
            if device.type == "cuda":
                torch.cuda.synchronize()
            train_seconds = time.perf_counter() - started
            model.eval()
            loss_value, masks = valid_loss(model, valid_clips, device, autocast)
            metrics = {"train_loss": total / frames, "valid_loss": loss_value}
            if validator:
                metrics.update(validator.evaluate(paths, {clip_id: masks[clip_id] for clip_id in scored}))
            metrics.update({"train_seconds": train_seconds, "train_frames_per_second": frames / train_seconds})
            run.log_metrics(metrics, step=epoch)

            cpu_model = copy.deepcopy(model).float().cpu().eval()
            stem = os.path.join(args.out, f"epoch-{epoch}")
            checkpoint = {"epoch": epoch, "model": cpu_model.state_dict(), "config": config, "bins": train.bins,
                          "metrics": metrics, "train_run_id": run.id}
            save_atomically(lambda path: torch.save(checkpoint, path), stem + ".pt")
            for streaming, suffix in ((False, ".onnx"), (True, ".stream.onnx")):
                values = metadata(train.attrs, mean, std, run.id, epoch, cpu_model, streaming)
                write_onnx(cpu_model, stem + suffix, values, streaming=streaming)
            for suffix, kind in ((".pt", "checkpoint"), (".onnx", "onnx"), (".stream.onnx", "onnx-streaming")):
                run.log_artifact(stem + suffix, kind=kind)

            improved = selection.update(epoch, metrics)
            if improved:
                for suffix in (".pt", ".onnx", ".stream.onnx"):
                    save_atomically(lambda path, s=suffix: shutil.copyfile(stem + s, path),
                                    os.path.join(args.out, "best" + suffix))
                best = {"epoch": epoch, "key": selection.key, "mode": selection.mode, "value": selection.best_value}
                save_atomically(lambda path: _write_json(best, path), os.path.join(args.out, "best.json"))
                run.set_tags({"best_epoch": epoch})
            shown = " ".join(f"{key} {value:.4g}" for key, value in metrics.items())
            print(f"crnn: epoch {epoch}: {shown}{' (best)' if improved else ''}", file=sys.stderr, flush=True)
            if selection.should_stop:
                print(f"crnn: stopping early: {selection.key} has not improved for {selection.patience} epochs "
                      f"(best: epoch {selection.best_epoch})", file=sys.stderr)
                break
        print(run.id)


def _write_json(value, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
