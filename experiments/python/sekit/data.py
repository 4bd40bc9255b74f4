"""PyTorch-style Dataset over a SEKit feature file (HDF5), needing only numpy and h5py.

A SEKit feature file (written by ``sekit features``) packs every clip's frames into one 2-D
dataset per stream, ``/noisy``, ``/clean``, ``/irm``, ... of shape ``[total_frames, bins]``,
with an index (``/index/clip_id``, ``offset``, ``num_frames``, ``snr_db``, ``split``) and
per-bin statistics (``/stats/<stream>/mean``, ``/stats/<stream>/std``, attribute ``split``).

    from sekit.data import SEKitFeatureDataset, SegmentBatchSampler
    train = SEKitFeatureDataset("train.h5", target="irm", split="train", segment_frames=128)
    test = SEKitFeatureDataset("test.h5", target="irm", stats_from="train.h5")  # the training statistics
    noisy, target, clip_id = train[0]          # float32 [128, bins], float32 [128, bins], str
    batches = SegmentBatchSampler(train, batch_size=64, seed=0)
    loader = torch.utils.data.DataLoader(train, batch_sampler=batches, num_workers=4)
    for epoch in range(epochs):
        batches.set_epoch(epoch)               # new batches and segments (sets train's epoch too)
        for noisy, target, clip_ids in loader: ...

Without torch, ``for noisy, target, clip_ids in train.batches(batches)`` gives the same batches
as numpy arrays ``[64, 128, bins]``.

Statistics: ``normalize=True`` uses the file's own ``/stats`` unless ``stats_from=`` names another
feature file (e.g. the training export, for a test export whose statistics describe the test
clips); its STFT and feature attributes must match. A ``StatisticsSplitWarning`` is issued when the
statistics used describe a split other than ``train``.

Batched reads: ``dataset.read_batch(items)`` (and ``__getitems__``, which ``DataLoader`` calls
with each batch) returns exactly ``[dataset[i] for i in items]`` but reads the batch's segments in
file order, every touched chunk (``chunk_frames`` rows) once, in one read per run of adjacent
touched chunks. ``SegmentBatchSampler`` makes batches whose segments lie in a few places of the
file (runs of ``neighbours`` clips adjacent in the file), so a batch costs a few large reads.

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

import os
import warnings

import h5py
import numpy as np

from .featurefile import STFT_ATTRIBUTES, MissingShardError, check_index_rows, check_shards, read_index, root_attributes
from .rowreader import RowReader

try:  # torch is optional: without it the class is a plain sequence of items.
    from torch.utils.data import Dataset as _DatasetBase
except ImportError:  # pragma: no cover - depends on the environment
    _DatasetBase = object

__all__ = ["SEKitFeatureDataset", "SegmentBatchSampler", "StatisticsMismatchError", "StatisticsSplitWarning",
           "collate_batch", "read_index", "check_shards", "MissingShardError"]

# The split whose statistics normalise without leaking evaluation data.
TRAINING_SPLIT = "train"
# Rows per read when a file states no chunk size (a merged file's virtual datasets have no chunks).
DEFAULT_CHUNK_FRAMES = 512


class StatisticsSplitWarning(UserWarning):
    """The normalisation statistics describe a split other than ``train`` (e.g. a test export's own)."""


class StatisticsMismatchError(ValueError):
    """``stats_from=`` names a file whose features differ from the dataset's (another STFT or feature)."""


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
            (seed, epoch, item) always gives the same segment whatever the worker or batch. Clips
            shorter than N frames are returned whole and zero-padded at the end.
        normalize: subtract ``/stats/noisy/mean`` and divide by ``/stats/noisy/std`` (per bin;
            std below ``eps`` is replaced by 1 so constant bins pass through centred).
        normalize_target: the same for the target with ``/stats/<target>`` (off by default:
            masks are already in [0, 1]).
        seed: base seed of the segment draws.
        stats_from: another feature file whose ``/stats`` to normalise with (the training
            export's, for a validation or test export); its STFT/feature root attributes and bins
            must match this file's. None uses this file's own statistics.
        clip_ids: keep only these clips (of `split`, when given), in the file's order: e.g. a
            validation set held out of the training split. Unknown ids raise ValueError.

    Raises:
        KeyError: a missing stream or statistics group, naming the file.
        ValueError: a split no clip has (naming the splits there are); an index whose rows lie
            outside the stored frames (naming the file, clip and stream).
        StatisticsMismatchError: ``stats_from`` describes other features, naming both files and the attribute.
        MissingShardError: a merged file whose shard is missing or changed.

    Warns:
        StatisticsSplitWarning: the statistics used describe a split other than ``train``
            (their group's ``split`` attribute).
    """

    def __init__(self, path, target="clean", split=None, segment_frames=None, normalize=True,
                 normalize_target=False, seed=0, eps=1e-8, stats_from=None, clip_ids=None):
        self.path = os.fspath(path)
        self.target = target
        self.segment_frames = None if segment_frames is None else int(segment_frames)
        if self.segment_frames is not None and self.segment_frames < 1:
            raise ValueError(f"segment_frames must be positive, got {segment_frames}")
        self.seed = int(seed)
        self.epoch = 0
        check_shards(self.path)
        index = read_index(self.path)
        if split is not None and not np.any(index["split"] == split):
            present = sorted(set(index["split"]) - {""})
            raise ValueError(f"{self.path}: no clip of split {split!r} (its splits: "
                             f"{', '.join(map(repr, present)) if present else 'none recorded'}; split=None keeps every clip)")
        keep = np.ones(len(index["offset"]), dtype=bool) if split is None else index["split"] == split
        if clip_ids is not None:
            wanted = set(clip_ids)
            unknown = sorted(wanted - set(index["clip_id"][keep]))
            if unknown:
                raise ValueError(f"{self.path}: no clip {', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''}"
                                 f"{f' in split {split!r}' if split is not None else ''}")
            keep &= np.array([clip in wanted for clip in index["clip_id"]], dtype=bool)
        self.clip_ids = index["clip_id"][keep]
        self.offsets = index["offset"][keep]
        self.num_frames = index["num_frames"][keep]
        self.snr_db = index["snr_db"][keep]
        with h5py.File(self.path, "r") as f:
            for stream in self.streams:
                if stream not in f:
                    names = sorted(k for k in f if k not in ("index", "stats"))
                    raise KeyError(f"{self.path}: no stream '/{stream}' (streams: {names})")
            self.bins = f["noisy"].shape[1]
            for stream in self.streams:
                check_index_rows(self.path, index, f[stream].shape[0], stream)
            self.attrs = root_attributes(f)
            self.chunk_frames = _chunk_frames(f["noisy"], self.attrs)
        self.stats_path = self.path if stats_from is None else os.fspath(stats_from)
        wanted = (["noisy"] if normalize else []) + (
            [target] if normalize_target and target is not None else [])
        stats = self._read_statistics(wanted, eps, stats_from is not None)
        self.noisy_stats = stats.get("noisy") if normalize else None
        self.target_stats = stats.get(target) if normalize_target and target is not None else None
        self._file = None
        self._pid = None
        self._datasets = {}
        self._readers = {}

    @property
    def streams(self):
        """The streams each item reads: ``noisy`` and the target (when there is one)."""
        return ["noisy"] + ([self.target] if self.target is not None else [])

    def _read_statistics(self, streams, eps, other_file):
        """{stream: (mean, std)} from ``self.stats_path``, after checking it describes these features."""
        if not streams:
            return {}
        with h5py.File(self.stats_path, "r") as f:
            if other_file:
                _check_same_features(self.path, self.attrs, self.bins, self.stats_path, f)
            stats = {stream: _stats(f, stream, eps, self.stats_path) for stream in streams}
            splits = {stream: _plain_string(f[f"stats/{stream}"].attrs.get("split")) for stream in streams}
        leaking = {stream: split for stream, split in splits.items() if split is not None and split != TRAINING_SPLIT}
        if leaking:
            described = ", ".join(f"/stats/{stream} the split '{split}'" for stream, split in leaking.items())
            advice = ("pass stats_from= the training export's feature file" if not other_file
                      else "stats_from should name the training export's feature file")
            warnings.warn(f"{self.stats_path}: normalising with statistics that describe another split than "
                          f"'{TRAINING_SPLIT}' ({described}): the evaluation data's own statistics leak into "
                          f"the inputs; {advice}", StatisticsSplitWarning, stacklevel=3)
        return stats

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
        start, frames, pad = self.segment(item)
        noisy = self._finish(self._dataset("noisy")[start:start + frames], pad, self.noisy_stats)
        target = None
        if self.target is not None:
            target = self._finish(self._dataset(self.target)[start:start + frames], pad, self.target_stats)
        return noisy, target, str(self.clip_ids[item])

    def __getitems__(self, items):
        """``[self[i] for i in items]``, read as one batch (``read_batch``): what ``DataLoader`` calls
        with each batch of indices (torch 2.x); the default collate function stacks the items."""
        noisy, target, clip_ids = self.read_batch(items)
        targets = [None] * len(clip_ids) if target is None else target
        stacked = (noisy, target, clip_ids) if self.segment_frames is not None else None
        return _BatchItems(zip(noisy, targets, clip_ids), stacked)

    def read_batch(self, items):
        """Reads `items` together: ``(noisy, target, clip_ids)`` holding the values of
        ``[self[i] for i in items]`` exactly. With ``segment_frames`` set, noisy and target are float32
        arrays ``[len(items), segment_frames, bins]``; for whole clips they are lists of arrays.
        target is None without a target. The segments are read in file order (``RowReader``: a
        compressed stream chunk-aligned, each touched chunk once; an uncompressed one straight from
        the file at the chunk index's addresses)."""
        items = [int(item) for item in items]
        for item in items:
            if not 0 <= item < len(self):
                raise IndexError(item)
        plans = [self.segment(item) for item in items]
        noisy = self._read_batch_stream("noisy", plans, self.noisy_stats)
        target = None if self.target is None else self._read_batch_stream(self.target, plans, self.target_stats)
        return noisy, target, [str(self.clip_ids[item]) for item in items]

    def batches(self, batch_sampler):
        """Yields ``read_batch(indices)`` for each list of indices `batch_sampler` yields: the
        loop without torch (or without worker processes)."""
        for indices in batch_sampler:
            yield self.read_batch(indices)

    def _read_batch_stream(self, stream, plans, stats):
        spans = [(start, frames) for start, frames, _ in plans]
        if self.segment_frames is None:
            out = [np.empty((frames, self.bins), dtype=np.float32) for _, frames, _ in plans]
            self._reader(stream).read(spans, out)
            return [self._finish(values, pad, stats) for values, (_, _, pad) in zip(out, plans)]
        out = np.empty((len(plans), self.segment_frames, self.bins), dtype=np.float32)
        self._reader(stream).read(spans, [out[row, :frames] for row, (_, frames, _) in enumerate(plans)])
        padded = [(row, frames) for row, (_, frames, pad) in enumerate(plans) if pad]
        for row, frames in padded:
            out[row, frames:] = 0
        if stats is not None:  # the per-item arithmetic, in place: (float32 value - mean) / std
            out -= stats[0]
            out /= stats[1]
            for row, frames in padded:  # padding stays zero, as in the per-item path
                out[row, frames:] = 0
        return out

    def _dataset(self, stream):
        # The file is opened on first use in each process (DataLoader workers fork or spawn after __init__).
        if self._file is None or self._pid != os.getpid():
            self._file = h5py.File(self.path, "r")
            self._pid = os.getpid()
            self._datasets = {}
            self._readers = {}
        if stream not in self._datasets:
            self._datasets[stream] = self._file[stream]
        return self._datasets[stream]

    def _reader(self, stream):
        dataset = self._dataset(stream)
        if stream not in self._readers:
            self._readers[stream] = RowReader(self.path, dataset, self.chunk_frames)
        return self._readers[stream]

    @staticmethod
    def _finish(values, pad, stats):
        values = values.astype(np.float32)
        if stats is not None:
            values = (values - stats[0]) / stats[1]
        if pad:
            values = np.concatenate([values, np.zeros((pad, values.shape[1]), dtype=np.float32)])
        return values

    def close(self):
        if self._file is not None:
            self._file.close()
        self._file = None
        self._datasets = {}
        self._readers = {}

    def __getstate__(self):  # h5py handles do not pickle; each worker opens its own
        state = self.__dict__.copy()
        state["_file"] = None
        state["_pid"] = None
        state["_datasets"] = {}
        state["_readers"] = {}
        return state


class _BatchItems(list):
    """The items ``__getitems__`` returns (a list, as ``DataLoader`` expects), with the batch arrays
    they are rows of (None for whole clips)."""

    def __init__(self, items, stacked):
        super().__init__(items)
        self.stacked = stacked


def collate_batch(batch):
    """A ``DataLoader`` ``collate_fn`` for ``SEKitFeatureDataset``: a batch of segments read by
    ``__getitems__`` becomes ``[noisy, target, clip_ids]`` (tensors ``[batch, segment_frames, bins]``,
    target None without a target, a list of str) sharing the arrays read, where torch's
    ``default_collate`` would copy them once more into a stacked tensor; anything else goes to
    ``default_collate``."""
    import torch
    from torch.utils.data import default_collate
    if isinstance(batch, _BatchItems) and batch.stacked is not None:
        noisy, target, clip_ids = batch.stacked
        return [torch.from_numpy(noisy), None if target is None else torch.from_numpy(target), list(clip_ids)]
    return default_collate(batch)


class SegmentBatchSampler:
    """Batches of a ``SEKitFeatureDataset``'s items whose segments lie in a few places of the file.

    Each epoch, the items are taken in file order (by offset), cut into runs of `neighbours`
    adjacent clips (the cut points shifted by a random 0..neighbours-1 each epoch), the runs put in
    a random order, and the result cut into batches of `batch_size`: a batch of 64 with
    ``neighbours=8`` holds 8 runs from 8 random places, which ``read_batch`` reads in about 8 reads
    per stream instead of 64. ``neighbours=1`` gives uniformly shuffled batches; ``shuffle=False``
    gives the items in file order (validation). Draws come from ``numpy.random.SeedSequence([seed,
    epoch])`` (a stream of its own, apart from the segment draws): the same seed and epoch give the
    same batches.

    Use as ``DataLoader(dataset, batch_sampler=sampler)``, or iterate it for lists of indices
    (``dataset.batches(sampler)`` reads them). ``set_epoch`` sets the dataset's epoch too.
    """

    def __init__(self, dataset, batch_size=64, shuffle=True, seed=None, drop_last=False, neighbours=8):
        if int(batch_size) < 1:
            raise ValueError(f"batch_size must be positive, got {batch_size}")
        if int(neighbours) < 1:
            raise ValueError(f"neighbours must be positive, got {neighbours}")
        self.dataset = dataset
        self.batch_size = int(batch_size)
        self.shuffle = bool(shuffle)
        self.seed = int(dataset.seed if seed is None else seed)
        self.drop_last = bool(drop_last)
        self.neighbours = int(neighbours)
        self.epoch = 0

    def set_epoch(self, epoch):
        """Selects the batches of `epoch`, and the dataset's segment draws of `epoch`."""
        self.epoch = int(epoch)
        self.dataset.set_epoch(epoch)

    def __len__(self):
        count = len(self.dataset)
        return count // self.batch_size if self.drop_last else -(-count // self.batch_size)

    def order(self):
        """This epoch's items in batch order (a numpy int64 array)."""
        order = np.argsort(self.dataset.offsets, kind="stable").astype(np.int64)
        if not self.shuffle or len(order) == 0:
            return order
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([self.seed, self.epoch], spawn_key=(1,))))
        shift = int(rng.integers(0, self.neighbours))
        cuts = [0] + list(range(shift or self.neighbours, len(order), self.neighbours)) + [len(order)]
        runs = [order[a:b] for a, b in zip(cuts[:-1], cuts[1:]) if b > a]
        return np.concatenate([runs[k] for k in rng.permutation(len(runs))])

    def __iter__(self):
        order = self.order()
        for first in range(0, len(order), self.batch_size):
            batch = order[first:first + self.batch_size]
            if self.drop_last and len(batch) < self.batch_size:
                return
            yield batch.tolist()


def _check_same_features(path, attrs, bins, stats_path, f):
    other = root_attributes(f)
    for key in STFT_ATTRIBUTES:
        if key in attrs or key in other:
            here, there = attrs.get(key, "(absent)"), other.get(key, "(absent)")
            if here != there:
                raise StatisticsMismatchError(
                    f"stats_from: {stats_path} describes other features than {path}: attribute '{key}' is "
                    f"{there!r} there, {here!r} here; normalisation statistics must come from an export with "
                    "the same STFT and feature options")
    if "noisy" in f and f["noisy"].shape[1] != bins:
        raise StatisticsMismatchError(f"stats_from: {stats_path} has {f['noisy'].shape[1]} bins, {path} has {bins}")


def _stats(f, stream, eps, path):
    if f"stats/{stream}" not in f:
        raise KeyError(f"{path}: no statistics /stats/{stream} (pass normalize=False, or export the train split)")
    mean = f[f"stats/{stream}/mean"][()].astype(np.float32)
    std = f[f"stats/{stream}/std"][()].astype(np.float32)
    return mean, np.where(std < eps, np.float32(1), std)


def _plain_string(value):
    return value.decode() if isinstance(value, bytes) else (None if value is None else str(value))


def _chunk_frames(dataset, attrs):
    if dataset.chunks is not None:
        return int(dataset.chunks[0])
    return int(attrs.get("chunk_frames") or DEFAULT_CHUNK_FRAMES)

# Streaming from archive corpora (sekit mix --archive tar|shar): sekit/archive.py.
from .archive import ArchiveError, SEKitArchiveDataset  # noqa: E402

__all__ += ["SEKitArchiveDataset", "ArchiveError"]
