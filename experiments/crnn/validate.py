"""Validation STOI and PESQ of a mask model on a few valid clips, resynthesised with the noisy phase.

The clips' waveforms come from the corpus the feature file was exported from (its root attribute
``corpus``, the folder ``sekit mix`` wrote, with ``manifest.jsonl``). The noisy STFT is computed with
the file's settings (n_fft, win_length, hop_length, periodic window, centred with zero padding), the
model's mask multiplies it, and the inverse STFT gives the enhanced signal, scored against the clean
one with pystoi (STOI) and pesq (wide-band PESQ at 16 kHz, narrow-band at 8 kHz; other rates: none).
"""

import json
import os

import numpy as np
import torch

WINDOWS = {
    "hann": lambda n: torch.hann_window(n, periodic=True, dtype=torch.float64),
    "hamming": lambda n: torch.hamming_window(n, periodic=True, dtype=torch.float64),
    "sqrt-hann": lambda n: torch.hann_window(n, periodic=True, dtype=torch.float64).sqrt(),
    "rectangular": lambda n: torch.ones(n, dtype=torch.float64),
}


def corpus_clips(corpus, clip_ids):
    """{clip_id: (noisy path, clean path)} of `clip_ids` from the corpus's manifest."""
    manifest = os.path.join(corpus, "manifest.jsonl")
    if not os.path.isfile(manifest):
        raise FileNotFoundError(f"{manifest}: the feature file's corpus is needed for validation STOI/PESQ "
                                f"(or set \"valid_metrics\": [] in the config)")
    wanted, found = set(clip_ids), {}
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            if entry["clip_id"] in wanted:
                found[entry["clip_id"]] = (os.path.join(corpus, entry["noisy"]), os.path.join(corpus, entry["clean"]))
    missing = sorted(wanted - set(found))
    if missing:
        raise KeyError(f"{manifest}: no clip(s) {', '.join(missing[:5])}")
    return found


class Validator:
    """Scores masks of valid clips. `attrs`: the feature file's root attributes."""

    def __init__(self, attrs, metrics=("stoi", "pesq")):
        self.metrics = tuple(metrics)
        self.sample_rate = int(attrs["sample_rate"])
        self.n_fft, self.hop = int(attrs["n_fft"]), int(attrs["hop_length"])
        self.window = WINDOWS[attrs["window"]](int(attrs["win_length"]))
        self.center = bool(int(attrs.get("center", 1)))

    def enhance(self, noisy, mask):
        """The waveform of `noisy` (samples) with `mask` [frames, bins] applied to its STFT."""
        signal = torch.from_numpy(np.asarray(noisy, dtype=np.float64))
        spectrum = torch.stft(signal, self.n_fft, self.hop, self.window.shape[0], self.window, center=self.center,
                              pad_mode="constant", return_complex=True)                # [bins, frames]
        mask = torch.as_tensor(np.asarray(mask, dtype=np.float64)).T
        frames = min(spectrum.shape[1], mask.shape[1])
        spectrum = spectrum[:, :frames] * mask[:, :frames]
        return torch.istft(spectrum, self.n_fft, self.hop, self.window.shape[0], self.window, center=self.center,
                           length=len(noisy)).numpy()

    def score(self, clean, enhanced):
        """{metric: value} of one clip."""
        from pesq import pesq
        from pystoi import stoi
        values = {}
        if "stoi" in self.metrics:
            values["stoi"] = float(stoi(clean, enhanced, self.sample_rate))
        if "pesq" in self.metrics and self.sample_rate in (8000, 16000):
            values["pesq"] = float(pesq(self.sample_rate, clean, enhanced, "wb" if self.sample_rate == 16000 else "nb"))
        return values

    def evaluate(self, paths, masks):
        """Mean {valid_<metric>: value} over clips; `paths` {clip_id: (noisy, clean)}, `masks` {clip_id: mask}."""
        import soundfile
        totals = {}
        for clip_id, mask in masks.items():
            noisy_path, clean_path = paths[clip_id]
            noisy, _ = soundfile.read(noisy_path, dtype="float64")
            clean, _ = soundfile.read(clean_path, dtype="float64")
            for key, value in self.score(clean, self.enhance(noisy, mask)).items():
                totals.setdefault(key, []).append(value)
        return {f"valid_{key}": float(np.mean(values)) for key, values in totals.items()}
