"""PyTorch-style Dataset over a SEKit feature file (HDF5), needing only numpy and h5py.

A SEKit feature file (written by ``sekit features``) packs every clip's frames into one 2-D
dataset per stream, ``/noisy``, ``/clean``, ``/irm``, ... of shape ``[total_frames, bins]``,
with an index (``/index/clip_id``, ``offset``, ``num_frames``, ``snr_db``, ``split``) and
per-bin statistics of the training split (``/stats/<stream>/mean``, ``/stats/<stream>/std``).

    from sekit_dataset import SEKitFeatureDataset
    train = SEKitFeatureDataset("features.h5", target="irm", split="train", segment_frames=128)
    noisy, target, clip_id = train[0]          # float32 [128, bins], float32 [128, bins], str
    loader = torch.utils.data.DataLoader(train, batch_size=32, shuffle=True, num_workers=4)
    for epoch in range(epochs):
        train.set_epoch(epoch)                 # new random segments each epoch (with persistent_workers=False)
        for noisy, target, clip_ids in loader: ...

A file merged from shards by ``sekit features merge`` holds HDF5 virtual datasets that read their
rows from the shard files; h5py reads the rows of a missing or replaced shard as zeros without an
error. The Dataset checks every mapped shard first (``check_shards``) and raises
``MissingShardError`` naming the stream, rows and shard file instead.

If torch is installed the class subclasses ``torch.utils.data.Dataset``; items are numpy
arrays either way (the default collate function turns them into tensors). The HDF5 file is
opened lazily, on the first item read in each process, so every DataLoader worker has its own
handle (h5py handles must not cross a fork); the index and statistics are read once in the
constructor and travel to workers as plain numpy arrays.
"""

import json
import os
import sys

import h5py
import numpy as np

try:  # torch is optional: without it the class is a plain sequence of items.
    from torch.utils.data import Dataset as _DatasetBase
except ImportError:  # pragma: no cover - depends on the environment
    _DatasetBase = object

__all__ = ["SEKitFeatureDataset", "read_index", "check_shards", "MissingShardError"]


class MissingShardError(OSError):
    """A merged feature file maps rows onto a shard file that is missing or changed."""


def check_shards(path):
    """Checks every shard a merged feature file (virtual datasets) maps rows onto: the shard file
    exists (relative names are resolved against the merged file's folder, as HDF5 does), opens,
    holds the mapped dataset with the mapped shape, and its index lists the clips the merged index
    places in those rows. Returns the number of mappings checked (0 for an ordinary file).

    Raises:
        MissingShardError: naming every mapping onto a missing or changed shard.
    """
    folder = os.path.dirname(os.path.abspath(path))
    problems, checked, shard_clips = [], 0, {}
    with h5py.File(path, "r") as f:
        offsets = f["index/offset"][()] if "index/offset" in f else np.zeros(0, dtype=np.int64)
        clip_ids = f["index/clip_id"].asstr()[()] if "index/clip_id" in f else np.zeros(0, dtype=object)
        for name in sorted(f):
            dataset = f[name]
            if not isinstance(dataset, h5py.Dataset) or not dataset.is_virtual:
                continue
            for source in dataset.virtual_sources():
                checked += 1
                file_name = source.file_name.replace("%%", "%")
                shard = file_name if os.path.isabs(file_name) else os.path.normpath(os.path.join(folder, file_name))
                start, end = source.vspace.get_select_bounds()
                first, rows = int(start[0]), int(end[0]) - int(start[0]) + 1
                problem = _shard_problem(shard, source.dset_name.replace("%%", "%"), (rows, dataset.shape[1]))
                if problem is None:
                    if shard not in shard_clips:
                        shard_clips[shard] = list(read_index(shard)["clip_id"])
                    listed = list(clip_ids[(offsets >= first) & (offsets < first + rows)])
                    if shard_clips[shard] != listed:
                        problem = (f"its clips are not the {len(listed)} the merged file lists in these rows "
                                   "(another shard's or another export's file under its name)")
                if problem is not None:
                    problems.append(f"stream '{name}' rows {first}..<{first + rows}: shard {shard}: {problem}")
    if problems:
        raise MissingShardError(f"{path}: merged feature file whose shard is missing or changed (its rows would read as "
                                f"zeros): {'; '.join(problems)}; put the shard files back beside it "
                                "(`sekit features check` lists them), or merge with --copy")
    return checked


def _shard_problem(shard, dataset, shape):
    if not os.path.exists(shard):
        return "the shard file is missing"
    try:
        with h5py.File(shard, "r") as f:
            if dataset not in f:
                return f"the shard file has no dataset {dataset}"
            if tuple(f[dataset].shape) != tuple(shape):
                return (f"its dataset {dataset} is {' x '.join(map(str, f[dataset].shape))}, not the "
                        f"{shape[0]} x {shape[1]} the merged file maps (the shard was replaced or truncated)")
    except OSError as error:
        return f"the shard file cannot be read as HDF5: {error}"
    return None


def read_index(path):
    """Returns the index of a feature file as a dict of numpy arrays (clip_id and split as str)."""
    with h5py.File(path, "r") as f:
        index = f["index"]
        count = index["offset"].shape[0]
        return {
            "clip_id": np.asarray(index["clip_id"].asstr()[()], dtype=object),
            "offset": index["offset"][()].astype(np.int64),
            "num_frames": index["num_frames"][()].astype(np.int64),
            "snr_db": index["snr_db"][()] if "snr_db" in index else np.full(count, np.nan),
            "split": np.asarray(index["split"].asstr()[()], dtype=object) if "split" in index
            else np.full(count, "", dtype=object),
        }


class SEKitFeatureDataset(_DatasetBase):
    """(noisy, target, clip_id) items from a SEKit feature file.

    Args:
        path: the ``.h5`` file.
        target: the target stream (``clean``, ``irm``, ``ibm``, ``psm``, ``noise``, ...), or None
            to return only the noisy features (target is then None).
        split: keep only clips of this split (``train``, ``valid``, ``test``); None keeps all.
        segment_frames: None returns whole clips (variable length: use batch_size=1 or a
            padding collate); an int N returns N consecutive frames drawn at random from the clip,
            the start drawn from ``numpy.random.default_rng([seed, epoch, item])`` so the same
            (seed, epoch, item) always gives the same segment whatever the worker. Clips shorter
            than N frames are returned whole and zero-padded at the end.
        normalize: subtract ``/stats/noisy/mean`` and divide by ``/stats/noisy/std`` (per bin;
            std below ``eps`` is replaced by 1 so constant bins pass through centred).
        normalize_target: the same for the target with ``/stats/<target>`` (off by default:
            masks are already in [0, 1]).
        seed: base seed of the segment draws.
    """

    def __init__(self, path, target="clean", split=None, segment_frames=None, normalize=True,
                 normalize_target=False, seed=0, eps=1e-8):
        self.path = os.fspath(path)
        self.target = target
        self.segment_frames = None if segment_frames is None else int(segment_frames)
        if self.segment_frames is not None and self.segment_frames < 1:
            raise ValueError(f"segment_frames must be positive, got {segment_frames}")
        self.seed = int(seed)
        self.epoch = 0
        check_shards(self.path)
        index = read_index(self.path)
        keep = np.ones(len(index["offset"]), dtype=bool) if split is None else index["split"] == split
        self.clip_ids = index["clip_id"][keep]
        self.offsets = index["offset"][keep]
        self.num_frames = index["num_frames"][keep]
        self.snr_db = index["snr_db"][keep]
        with h5py.File(self.path, "r") as f:
            for stream in ["noisy"] + ([target] if target is not None else []):
                if stream not in f:
                    raise KeyError(f"{self.path}: no stream '/{stream}' (streams: {sorted(k for k in f if k not in ('index', 'stats'))})")
            self.bins = f["noisy"].shape[1]
            self.attrs = {key: _plain(value) for key, value in f.attrs.items()}
            self.noisy_stats = _stats(f, "noisy", eps, self.path) if normalize else None
            self.target_stats = _stats(f, target, eps, self.path) if normalize_target and target is not None else None
        self._file = None
        self._pid = None

    def __len__(self):
        return len(self.offsets)

    def set_epoch(self, epoch):
        """Selects the segment draws of `epoch` (call before each epoch)."""
        self.epoch = int(epoch)

    def segment(self, item):
        """(first frame in the packed datasets, frames read, zero frames padded) of `item`."""
        offset, frames = int(self.offsets[item]), int(self.num_frames[item])
        if self.segment_frames is None:
            return offset, frames, 0
        if frames <= self.segment_frames:
            return offset, frames, self.segment_frames - frames
        rng = np.random.default_rng([self.seed, self.epoch, int(item)])
        start = int(rng.integers(0, frames - self.segment_frames + 1))
        return offset + start, self.segment_frames, 0

    def __getitem__(self, item):
        if not 0 <= item < len(self):
            raise IndexError(item)
        f = self._handle()
        start, frames, pad = self.segment(item)
        noisy = self._read(f, "noisy", start, frames, pad, self.noisy_stats)
        target = None if self.target is None else self._read(f, self.target, start, frames, pad, self.target_stats)
        return noisy, target, str(self.clip_ids[item])

    def _handle(self):
        # Opened on first use in each process (DataLoader workers fork or spawn after __init__).
        if self._file is None or self._pid != os.getpid():
            self._file = h5py.File(self.path, "r")
            self._pid = os.getpid()
        return self._file

    @staticmethod
    def _read(f, stream, start, frames, pad, stats):
        values = f[stream][start:start + frames].astype(np.float32)
        if stats is not None:
            values = (values - stats[0]) / stats[1]
        if pad:
            values = np.concatenate([values, np.zeros((pad, values.shape[1]), dtype=np.float32)])
        return values

    def close(self):
        if self._file is not None:
            self._file.close()
        self._file = None

    def __getstate__(self):  # h5py handles do not pickle; each worker opens its own
        state = self.__dict__.copy()
        state["_file"] = None
        state["_pid"] = None
        return state


def _stats(f, stream, eps, path):
    if f"stats/{stream}" not in f:
        raise KeyError(f"{path}: no statistics /stats/{stream} (pass normalize=False, or export the train split)")
    mean = f[f"stats/{stream}/mean"][()].astype(np.float32)
    std = f[f"stats/{stream}/std"][()].astype(np.float32)
    return mean, np.where(std < eps, np.float32(1), std)


def _plain(value):
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.generic):
        return value.item()
    return value


def main(argv):
    """``python sekit_dataset.py FILE [TARGET [SEGMENT_FRAMES]]``: prints a JSON summary and the first item's shapes."""
    path = argv[1]
    target = argv[2] if len(argv) > 2 else "clean"
    segment = int(argv[3]) if len(argv) > 3 else None
    dataset = SEKitFeatureDataset(path, target=target, segment_frames=segment, normalize=False)
    noisy, target_values, clip_id = dataset[0]
    print(json.dumps({
        "clips": len(dataset), "bins": dataset.bins, "frames": int(dataset.num_frames.sum()),
        "first_clip": clip_id, "noisy_shape": list(noisy.shape),
        "target_shape": None if target_values is None else list(target_values.shape),
        "attrs": dataset.attrs,
    }, indent=2, default=str))


if __name__ == "__main__":
    main(sys.argv)
