"""A small mask estimator of the `sekit enhance --model` contract (docs/enhancement.md), for tests
and benchmarks: Linear(bins -> hidden) -> GRU(hidden) -> Linear(hidden -> bins) -> sigmoid, exported
with torch.onnx.export as OUT (whole utterance, dynamic frames) and OUT minus .onnx plus .stream.onnx
(one frame and the GRU state in and out), the metadata added with the onnx package. Untrained
(seeded weights): its outputs are for checking SEKit against ONNX Runtime, not for listening.

usage: tiny_onnx_model.py OUT [GRAPH_BINS [NAN_BELOW_FRAMES [METADATA_JSON [TRAIN_RUN_ID [HIDDEN]]]]]
  GRAPH_BINS: the graph's bins (257 fits the metadata; another number makes a misfit model)
  NAN_BELOW_FRAMES: when > 0, the mask is NaN for inputs of fewer frames
  METADATA_JSON: metadata values replacing the defaults ({"n_fft": "1024"}; the value "(absent)" removes a key)
"""
import json, sys
import numpy as np
import onnx
import torch

arguments = sys.argv[1:] + [None] * (6 - len(sys.argv[1:]))
out = arguments[0]
graph_bins, nan_below = int(arguments[1] or 257), int(arguments[2] or 0)
overrides, train_run, hidden = arguments[3] or "{}", arguments[4] or "", int(arguments[5] or 16)
torch.manual_seed(0)
n_fft = 512
bins = n_fft // 2 + 1

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = torch.nn.Linear(graph_bins, hidden)
        self.gru = torch.nn.GRU(hidden, hidden, batch_first=True)
        self.out = torch.nn.Linear(hidden, graph_bins)

    def forward(self, noisy):
        h, _ = self.gru(self.inp(noisy))
        mask = torch.sigmoid(self.out(h))
        if nan_below:
            mask = mask * torch.sqrt(noisy.new_tensor(1.0) * noisy.size(1) - nan_below)
        return mask

class Stream(torch.nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, noisy, state_in):
        h, state_out = self.net.gru(self.net.inp(noisy), state_in)
        return torch.sigmoid(self.net.out(h)), state_out

net = Net().eval()
metadata = {"sekit_model_format": "1", "sample_rate": "16000", "n_fft": str(n_fft), "win_length": str(n_fft),
            "hop_length": "256", "window": "hann", "center": "1", "feature": "log1p", "exponent": "0.3",
            "output": "mask", "bins": str(bins), "stats_mean": json.dumps(np.linspace(-2.0, 0.5, bins).tolist()),
            "stats_std": json.dumps(np.linspace(0.5, 1.5, bins).tolist()), "train_run_id": train_run, "epoch": "3",
            "lookahead_frames": "0", "streaming": "0", "state_shape": json.dumps([1, 1, hidden]),
            "parameters": str(sum(p.numel() for p in net.parameters()))}
metadata.update(json.loads(overrides))
metadata = {key: value for key, value in metadata.items() if value != "(absent)"}  # an override "(absent)" removes the key

def save(path, metadata):
    model = onnx.load(path)
    del model.metadata_props[:]
    for key, value in metadata.items():
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, path)

with torch.no_grad():
    torch.onnx.export(net, (torch.zeros(1, 10, graph_bins),), out, input_names=["noisy"], output_names=["mask"],
                      dynamic_axes={"noisy": {1: "frames"}, "mask": {1: "frames"}}, dynamo=False)
    save(out, metadata)
    stream = out[:-len(".onnx")] + ".stream.onnx"
    torch.onnx.export(Stream(net), (torch.zeros(1, 1, graph_bins), torch.zeros(1, 1, hidden)), stream,
                      input_names=["noisy", "state_in"], output_names=["mask", "state_out"], dynamo=False)
    save(stream, {**metadata, "streaming": "1"})
