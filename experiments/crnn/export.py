"""ONNX export of a CRNN checkpoint: the whole-utterance model and the frame-by-frame model, each with
the metadata ``sekit enhance --model`` reads (docs/crnn-recipe.md, "The ONNX contract").

    write_onnx(model, "epoch-1.onnx", metadata(features_attrs, stats, run_id, epoch, model))
    write_onnx(model, "epoch-1.stream.onnx", ..., streaming=True)
"""

import json
import os
import warnings

import onnx
import torch

from model import StreamingCRNN, parameter_count

# The root attributes of the feature file copied into the metadata, as they are named there.
STFT_KEYS = ("sample_rate", "n_fft", "win_length", "hop_length", "window", "center", "feature", "exponent")
SUPPORTED_WINDOWS = ("hann", "hamming", "sqrt-hann", "rectangular")
OPSET = 17


def _text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return str(value)


def metadata(attrs, mean, std, run_id, epoch, model, streaming):
    """The ``metadata_props`` of one exported model: every value a string.

    Args:
        attrs: the feature file's root attributes (``sekit.featurefile.root_attributes``).
        mean, std: the per-bin normalisation the model was trained with (std as divided by).
    """
    missing = [key for key in STFT_KEYS if key not in attrs]
    if missing:
        raise KeyError(f"the feature file lacks the root attribute(s) {', '.join(missing)}")
    if attrs["window"] not in SUPPORTED_WINDOWS:
        raise ValueError(f"window {attrs['window']!r}: the ONNX contract knows {', '.join(SUPPORTED_WINDOWS)}")
    values = {"sekit_model_format": "1"}
    for key in STFT_KEYS:
        value = attrs[key]
        values[key] = ("1" if int(value) else "0") if key == "center" else _text(value)
    values.update({
        "output": "mask",
        "bins": str(model.bins),
        "stats_mean": json.dumps([float(v) for v in mean]),
        "stats_std": json.dumps([float(v) for v in std]),
        "train_run_id": run_id or "",
        "epoch": str(int(epoch)),
        "lookahead_frames": "0",
        "streaming": "1" if streaming else "0",
        "parameters": str(parameter_count(model)),
    })
    if streaming:
        values["state_shape"] = json.dumps(model.state_shape())
    return values


def write_onnx(model, path, values, streaming=False):
    """Exports `model` (a CRNN, in eval mode on the CPU) to `path` with `values` as metadata, written
    under a temporary name and renamed when complete."""
    temporary = path + ".tmp"
    noisy = torch.zeros(1, 1 if streaming else 16, model.bins)
    with torch.no_grad(), warnings.catch_warnings():
        # The TorchScript exporter's notes (GRU batch sizes, its deprecation) say nothing about this model.
        warnings.simplefilter("ignore")
        if streaming:
            torch.onnx.export(StreamingCRNN(model), (noisy, torch.zeros(model.state_shape())), temporary,
                              input_names=["noisy", "state_in"], output_names=["mask", "state_out"],
                              opset_version=OPSET, dynamo=False)
        else:
            torch.onnx.export(model, (noisy,), temporary, input_names=["noisy"], output_names=["mask"],
                              dynamic_axes={"noisy": {1: "frames"}, "mask": {1: "frames"}},
                              opset_version=OPSET, dynamo=False)
    exported = onnx.load(temporary)
    del exported.metadata_props[:]
    for key, value in values.items():
        exported.metadata_props.add(key=key, value=value)
    onnx.save(exported, temporary)
    os.replace(temporary, path)
