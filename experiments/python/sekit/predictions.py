"""A model's outputs for the clips of a feature file, in the file ``sekit synthesize`` reads.

    from sekit.predictions import write_predictions
    write_predictions("pred.h5", {clip_id: mask, ...}, like="test.h5", stream="mask")

The predictions file (``content`` = ``sekit-predictions``, ``format_version`` 1):

- ``/STREAM``: float32 ``[total_rows, bins]``, the clips packed in the like-file's order (any subset
  of its clips);
- ``/index/clip_id`` (variable-length UTF-8), ``/index/offset`` and ``/index/num_frames`` (int64):
  each clip's rows, as in a feature file;
- root attributes ``format_version`` (int64 1), ``content``, ``stream``, ``run_id`` (the producing
  run: the ``run_id`` argument, else ``$SEKIT_RUN_ID``, else ""), ``features_run_id`` (the like-file's,
  "" if absent) and ``like`` (the like-file's path as given).

It is written under a temporary name in the same folder and renamed: an interrupted call leaves the
previous file, or none. The same inputs give a byte-identical file.
"""

import os
import secrets

import h5py
import numpy as np

from .featurefile import read_index

__all__ = ["write_predictions", "PredictionsError", "FORMAT_VERSION", "CONTENT"]

FORMAT_VERSION = 1
CONTENT = "sekit-predictions"
# Problems listed in one error before the rest are only counted.
_LISTED_PROBLEMS = 10


class PredictionsError(ValueError):
    """Predictions that cannot be written: unknown clips, wrong shapes, non-finite values, none at all."""


def write_predictions(path, predictions, like, stream="mask", run_id=None):
    """Writes `predictions` ({clip_id: array [num_frames, bins]}) for clips of the feature file `like`
    into the predictions file `path` (see the module's doc for the format), replacing it if it exists.

    Args:
        path: the ``.h5`` file to write (its folder must exist).
        predictions: a mapping from clip id to a 2-D numpy array or torch tensor (moved to the CPU
            and detached) of the clip's ``num_frames`` rows and the like-file's bins; values are
            stored as float32 and must be finite.
        like: the feature file the clips come from (its ``/index`` gives each clip's frame count).
        stream: the dataset name, ``mask`` or ``magnitude`` for ``sekit synthesize --dataset``.
        run_id: the producing run's id; None takes ``$SEKIT_RUN_ID`` (set by ``sekit.tracking``
            while a run is active), else "".

    Returns:
        The path written (str).

    Raises:
        PredictionsError: nothing written; the message names every clip at fault and the numbers.
        KeyError: `like` is not a feature file.
    """
    path, like_path = os.fspath(path), os.fspath(like)
    if not isinstance(stream, str) or not stream or "/" in stream or stream == "index":
        raise PredictionsError(f"{path}: stream {stream!r} cannot name a dataset (a name without '/', not 'index')")
    if not hasattr(predictions, "items"):
        raise PredictionsError(f"{path}: predictions must be a dict {{clip_id: array}}, got {type(predictions).__name__}")
    if len(predictions) == 0:
        raise PredictionsError(f"{path}: no predictions (an empty dict): nothing to write")
    index = read_index(like_path)
    with h5py.File(like_path, "r") as f:
        bins = _bins(f, like_path)
        features_run_id = _string(f.attrs.get("features_run_id", ""))
    rows_of = {clip_id: (row, int(n)) for row, (clip_id, n) in enumerate(zip(index["clip_id"], index["num_frames"]))}
    arrays, problems = {}, []
    for clip_id, value in predictions.items():
        problem, array = _check(clip_id, value, rows_of, bins, like_path)
        if problem is not None:
            problems.append(problem)
        else:
            arrays[clip_id] = array
    if problems:
        listed = "; ".join(problems[:_LISTED_PROBLEMS])
        more = f"; and {len(problems) - _LISTED_PROBLEMS} more" if len(problems) > _LISTED_PROBLEMS else ""
        raise PredictionsError(f"{path}: {len(problems)} of {len(predictions)} predictions refused, nothing written: "
                               f"{listed}{more}")
    clip_ids = sorted(arrays, key=lambda clip_id: rows_of[clip_id][0])
    num_frames = np.array([arrays[clip_id].shape[0] for clip_id in clip_ids], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(num_frames)[:-1]]).astype(np.int64)
    attributes = {
        "content": CONTENT, "features_run_id": features_run_id, "format_version": np.int64(FORMAT_VERSION),
        "like": like_path, "run_id": os.environ.get("SEKIT_RUN_ID", "") if run_id is None else str(run_id),
        "stream": stream,
    }
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise PredictionsError(f"{path}: the folder {folder} does not exist")
    temporary = os.path.join(folder, f".{os.path.basename(path)}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        with h5py.File(temporary, "w-") as out:
            dataset = out.create_dataset(stream, shape=(int(num_frames.sum()), bins), dtype="<f4", track_times=False)
            for clip_id, offset, frames in zip(clip_ids, offsets, num_frames):
                if frames:
                    dataset[offset:offset + frames] = arrays[clip_id]
            group = out.create_group("index")
            group.create_dataset("clip_id", data=np.array(clip_ids, dtype=object),
                                 dtype=h5py.string_dtype("utf-8"), track_times=False)
            group.create_dataset("offset", data=offsets, dtype="<i8", track_times=False)
            group.create_dataset("num_frames", data=num_frames, dtype="<i8", track_times=False)
            for name in sorted(attributes):
                out.attrs[name] = attributes[name]
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
    return path


def _check(clip_id, value, rows_of, bins, like_path):
    """(problem, None) or (None, float32 array) for one prediction."""
    if not isinstance(clip_id, str):
        return f"clip id {clip_id!r} is a {type(clip_id).__name__}, not a str", None
    if clip_id not in rows_of:
        return f"clip '{clip_id}' is not in {like_path} ({len(rows_of)} clips)", None
    array = _numpy(value)
    if array.ndim != 2:
        return f"clip '{clip_id}': a {array.ndim}-D array of shape {tuple(array.shape)}, not 2-D [frames, bins]", None
    if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)
            or array.dtype == np.bool_):
        return f"clip '{clip_id}': values of type {array.dtype}, not real numbers", None
    expected = rows_of[clip_id][1]
    if array.shape[0] != expected:
        return f"clip '{clip_id}': {array.shape[0]} frames, the clip has {expected} in {like_path}", None
    if array.shape[1] != bins:
        return f"clip '{clip_id}': {array.shape[1]} bins, {like_path} has {bins}", None
    with np.errstate(over="ignore"):  # reported below, as non-finite values
        stored = array.astype(np.float32)
    finite = np.isfinite(stored)
    if not finite.all():
        frame, column = np.argwhere(~finite)[0]
        given = array[frame, column]
        what = f" ({given})" if not np.isfinite(given) else f" ({given} overflows float32)"
        return (f"clip '{clip_id}': {int((~finite).sum())} non-finite values as float32, the first at frame "
                f"{frame}, bin {column}{what}"), None
    return None, stored


def _numpy(value):
    # A torch tensor (without importing torch): detached, on the CPU; bfloat16 and the like via float32.
    if hasattr(value, "detach") and hasattr(value, "cpu"):
        tensor = value.detach().cpu()
        try:
            return tensor.numpy()
        except TypeError:
            return tensor.float().numpy()
    return np.asarray(value)


def _bins(f, like_path):
    streams = [f[name] for name in sorted(f) if isinstance(f[name], h5py.Dataset) and len(f[name].shape) == 2]
    if "noisy" in f:
        return int(f["noisy"].shape[1])
    if not streams:
        raise KeyError(f"{like_path}: no 2-D stream: not a SEKit feature file")
    return int(streams[0].shape[1])


def _string(value):
    return value.decode() if isinstance(value, bytes) else str(value)
