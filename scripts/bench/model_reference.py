"""`sekit enhance --model` done with ONNX Runtime called directly from Python: the reference of
scripts/bench/model.sh (speed) and of the tests (outputs). Per clip: the STFT of the noisy WAV with
the model's metadata (numpy; librosa's conventions: periodic window zero-padded to n_fft and centred,
`center` pads n_fft/2 zeros), the normalised feature, the model's `mask` (one single-threaded
session), the mask applied to the noisy STFT (or the magnitude inverted, `output` = magnitude), the
weighted overlap-add, the input's length.

usage: model_reference.py MODEL IN_DIR OUT_DIR     enhance every .wav of IN_DIR into OUT_DIR (float32)
       model_reference.py --compare MODEL NOISY ENHANCED
                                                   print {"max_abs_diff", "peak"} of ENHANCED against
                                                   the reference output for NOISY
"""
import json
import os
import sys

import numpy as np
import onnxruntime
import soundfile

FEATURES = {
    "magnitude": (lambda m, c: m, lambda v, c: np.maximum(v, 0)),
    "power": (lambda m, c: m * m, lambda v, c: np.sqrt(np.maximum(v, 0))),
    "log1p": (lambda m, c: np.log1p(m), lambda v, c: np.maximum(np.expm1(v), 0)),
    "db": (lambda m, c: 20 * np.log10(np.maximum(m, 1e-5)), lambda v, c: 10 ** (v / 20)),
    "compressed": (lambda m, c: np.where(m > 0, m, 0) ** c, lambda v, c: np.where(v > 0, v, 0) ** (1 / c)),
}


def window(kind, length):
    n = np.arange(length)
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * n / length)
    return {"hann": hann, "hamming": 0.54 - 0.46 * np.cos(2 * np.pi * n / length), "sqrt-hann": np.sqrt(hann),
            "rectangular": np.ones(length)}[kind]


class Model:
    def __init__(self, path):
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        meta = self.session.get_modelmeta().custom_metadata_map
        self.n_fft, self.hop, win = int(meta["n_fft"]), int(meta["hop_length"]), int(meta["win_length"])
        self.center = meta["center"] == "1"
        self.window = np.zeros(self.n_fft)
        left = (self.n_fft - win) // 2
        self.window[left:left + win] = window(meta["window"], win)
        self.forward, self.inverse = FEATURES[meta["feature"]]
        self.exponent = float(meta["exponent"])
        self.magnitude_output = meta["output"] == "magnitude"
        self.mean = np.array(json.loads(meta["stats_mean"]))
        self.std = np.maximum(np.array(json.loads(meta["stats_std"])), 1e-8)

    def enhance(self, x):
        n_fft, hop = self.n_fft, self.hop
        padded = np.pad(x.astype(np.float64), n_fft // 2) if self.center else x.astype(np.float64)
        frames = 1 + (len(padded) - n_fft) // hop
        index = np.arange(n_fft)[None, :] + hop * np.arange(frames)[:, None]
        spectrum = np.fft.rfft(padded[index] * self.window, axis=1)
        magnitude = np.abs(spectrum)
        features = ((self.forward(magnitude, self.exponent) - self.mean) / self.std).astype(np.float32)[None]
        (mask,) = self.session.run(["mask"], {"noisy": features})
        if self.magnitude_output:
            enhanced = self.inverse(mask[0].astype(np.float64), self.exponent) * np.exp(1j * np.angle(spectrum))
        else:
            enhanced = mask[0] * spectrum
        pieces = np.fft.irfft(enhanced, n_fft, axis=1) * self.window
        out = np.zeros(n_fft + hop * (frames - 1))
        norm = np.zeros_like(out)
        np.add.at(out, index, pieces)
        np.add.at(norm, index, np.broadcast_to(self.window ** 2, pieces.shape))
        out[norm > 1e-8] /= norm[norm > 1e-8]
        start = n_fft // 2 if self.center else 0
        result = np.zeros(len(x))
        kept = out[start:start + len(x)]
        result[:len(kept)] = kept
        return result


def main():
    if sys.argv[1] == "--compare":
        model_path, noisy_path, enhanced_path = sys.argv[2:5]
        x, _ = soundfile.read(noisy_path, dtype="float32")
        reference = Model(model_path).enhance(x)
        enhanced, _ = soundfile.read(enhanced_path, dtype="float32")
        assert len(enhanced) == len(x), (len(enhanced), len(x))
        print(json.dumps({"max_abs_diff": float(np.abs(enhanced - reference).max()), "peak": float(np.abs(reference).max())}))
        return
    model_path, in_dir, out_dir = sys.argv[1:4]
    model = Model(model_path)
    os.makedirs(out_dir, exist_ok=True)
    for name in sorted(os.listdir(in_dir)):
        if name.endswith(".wav"):
            x, rate = soundfile.read(os.path.join(in_dir, name), dtype="float32")
            soundfile.write(os.path.join(out_dir, name), model.enhance(x).astype(np.float32), rate, subtype="FLOAT")


if __name__ == "__main__":
    main()
