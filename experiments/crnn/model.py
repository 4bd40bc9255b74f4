"""The CRNN mask estimator: convolutions over frequency, a GRU over time, a sigmoid mask per bin.

In the spirit of the SSPRL smartphone CRNN and Tan & Wang's CRN, but causal by construction: every
convolution has a kernel of one frame in time (it mixes neighbouring bins of the same frame), so the
only memory across frames is the GRU's state. Frame t of the output depends on frames 0..t of the
input alone, and the frame-by-frame model (``StreamingCRNN``) carries just the GRU state.

    model = CRNN(bins=257)                      # ~1.2 M parameters with the default sizes
    mask = model(noisy)                          # [batch, frames, bins] -> [batch, frames, bins] in [0, 1]
"""

import torch
from torch import nn

# The model's settings and their defaults (the config file's "model" object).
MODEL_DEFAULTS = {"channels": [16, 32, 64, 64], "kernel_bins": 5, "stride_bins": 2, "projection": 256,
                  "gru_hidden": 256, "gru_layers": 2}


def conv_output_bins(bins, kernel_bins, stride_bins, layers):
    """The number of bins left after `layers` convolutions (padding kernel_bins // 2 on both sides)."""
    for _ in range(layers):
        bins = (bins + 2 * (kernel_bins // 2) - kernel_bins) // stride_bins + 1
    return bins


class CRNN(nn.Module):
    """Encoder (Conv2d over frequency, ELU) -> Linear -> GRU over time -> Linear -> sigmoid mask."""

    def __init__(self, bins, channels=None, kernel_bins=5, stride_bins=2, projection=256, gru_hidden=256,
                 gru_layers=2):
        super().__init__()
        channels = list(MODEL_DEFAULTS["channels"] if channels is None else channels)
        self.bins, self.gru_layers, self.gru_hidden = int(bins), int(gru_layers), int(gru_hidden)
        layers, previous = [], 1
        for count in channels:
            layers += [nn.Conv2d(previous, count, kernel_size=(1, kernel_bins), stride=(1, stride_bins),
                                 padding=(0, kernel_bins // 2)), nn.ELU()]
            previous = count
        self.encoder = nn.Sequential(*layers)
        encoded = previous * conv_output_bins(self.bins, kernel_bins, stride_bins, len(channels))
        self.project = nn.Sequential(nn.Linear(encoded, projection), nn.ELU())
        self.gru = nn.GRU(projection, gru_hidden, num_layers=gru_layers, batch_first=True)
        self.output = nn.Linear(gru_hidden, self.bins)

    def state_shape(self, batch=1):
        """The GRU state's shape, [gru_layers, batch, gru_hidden] (zeros at the start of a stream)."""
        return [self.gru_layers, batch, self.gru_hidden]

    def encode(self, noisy):
        """[batch, frames, bins] -> [batch, frames, projection], frame by frame."""
        batch, frames, _ = noisy.shape
        encoded = self.encoder(noisy.unsqueeze(1))                  # [batch, channels, frames, bins']
        encoded = encoded.permute(0, 2, 1, 3).reshape(batch, frames, -1)
        return self.project(encoded)

    def forward(self, noisy, state=None):
        """The mask of `noisy` [batch, frames, bins]; with `state` also returns the GRU's last state."""
        hidden, last = self.gru(self.encode(noisy), state)
        mask = torch.sigmoid(self.output(hidden))
        return mask if state is None else (mask, last)


class StreamingCRNN(nn.Module):
    """The frame-by-frame model: (noisy [1, 1, bins], state_in) -> (mask [1, 1, bins], state_out)."""

    def __init__(self, crnn):
        super().__init__()
        self.crnn = crnn

    def forward(self, noisy, state_in):
        return self.crnn(noisy, state_in)


def parameter_count(model):
    return sum(parameter.numel() for parameter in model.parameters())
