"""SEKit's Python side: read the feature files ``sekit features`` writes, write predictions for
``sekit synthesize``, and (with the ``sekit`` binary) record training runs in the catalogue.

Submodules are imported on first use, so ``import sekit`` costs nothing (no h5py, no torch):

- ``sekit.data``: ``SEKitFeatureDataset`` (a PyTorch-style Dataset over a feature file, torch
  optional) and ``SegmentBatchSampler`` (batches read in file order, chunk by chunk).
- ``sekit.predictions``: ``write_predictions`` (a model's outputs for any subset of a feature
  file's clips, in the format ``sekit synthesize`` reads).
- ``sekit.featurefile``: the feature file's index and shard checks (numpy and h5py only).
- ``sekit.tracking`` and ``sekit.catalog``: runs made in Python, and the catalogue read back.

``sekit.data.X`` works after ``import sekit`` (the attribute imports the submodule).
"""

import importlib

# The version of SEKit this package belongs to (the `sekit` tool's, Sources/SEKitSignal/Base/SEKitVersion.swift).
__version__ = "0.1.0"

_SUBMODULES = ("catalog", "data", "featurefile", "predictions", "tracking")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
