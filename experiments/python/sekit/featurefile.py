"""A SEKit feature file's index, attributes and shard mappings, read with numpy and h5py only.

The layout (``docs/features-and-hdf5.md``): every stream (``/noisy``, ``/clean``, ``/irm``, ...) is
one 2-D dataset ``[total_frames, bins]``; clip ``i``'s frames are rows ``offset[i] : offset[i] +
num_frames[i]`` of every stream (``/index/clip_id``, ``offset``, ``num_frames``, ``snr_db``,
``split``); ``/stats/<stream>/mean|std`` hold per-bin statistics (attributes ``count``, ``split``).
"""

import os

import h5py
import numpy as np

__all__ = ["MissingShardError", "check_index_rows", "check_shards", "read_index", "root_attributes", "STFT_ATTRIBUTES"]

# The root attributes that decide what a feature value means: two files whose values may share
# normalisation statistics agree on all of them (and on the number of bins).
STFT_ATTRIBUTES = ("n_fft", "win_length", "hop_length", "window", "window_periodic", "center", "pad_mode",
                   "feature", "exponent", "sample_rate", "frame_convention")


class MissingShardError(OSError):
    """A merged feature file maps rows onto a shard file that is missing or changed."""


def read_index(path):
    """Returns the index of a feature file as a dict of numpy arrays (clip_id and split as str)."""
    with h5py.File(path, "r") as f:
        if "index/offset" not in f:
            raise KeyError(f"{path}: no /index/offset: not a SEKit feature file (written by `sekit features`)")
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


def check_index_rows(path, index, rows, stream="noisy"):
    """Raises ValueError naming the file, the first bad clip and the stream when an index entry's
    frames (``offset : offset + num_frames``) are not within the ``rows`` rows the stream stores (a
    damaged or hand-edited index would otherwise read short clips, or batches padded with zeros)."""
    offsets, frames = index["offset"], index["num_frames"]
    bad = np.flatnonzero((offsets < 0) | (frames < 0) | (offsets + frames > rows))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{path}: corrupt index: clip {index['clip_id'][i]} (entry {i}) has rows "
                         f"{int(offsets[i])}..<{int(offsets[i] + frames[i])}, but /{stream} stores {rows} rows"
                         f"{f' ({bad.size} entries are out of range)' if bad.size > 1 else ''}; export the file again")


def root_attributes(f):
    """The root attributes of an open file as plain Python values (str, int, float)."""
    return {key: _plain(value) for key, value in f.attrs.items()}


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


def _plain(value):
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.generic):
        return value.item()
    return value
