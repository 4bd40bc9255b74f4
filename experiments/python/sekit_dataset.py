"""The feature Dataset under its first name: ``from sekit_dataset import SEKitFeatureDataset`` keeps
working (with ``experiments/python`` on ``sys.path``). It lives in the ``sekit`` package now
(``sekit.data``; install with ``pip install -e experiments/python``).

``python experiments/python/sekit_dataset.py FILE [TARGET [SEGMENT_FRAMES]]`` prints a JSON summary
of the file and the first item's shapes.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the sekit package beside this file

from sekit.data import (  # noqa: E402
    MissingShardError, SegmentBatchSampler, SEKitFeatureDataset, StatisticsMismatchError, StatisticsSplitWarning,
    check_shards, read_index,
)

__all__ = ["SEKitFeatureDataset", "SegmentBatchSampler", "StatisticsMismatchError", "StatisticsSplitWarning",
           "read_index", "check_shards", "MissingShardError"]


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
