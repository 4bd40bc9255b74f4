"""Python side of scripts/bench/score.sh.

score_reference.py score CLEAN_DIR ENHANCED_DIR OUT.json [METRICS]
    STOI and ESTOI with pystoi 0.4.1 and segmental SNR with numpy (Loizou's comp_snr.m) of every
    CLEAN_DIR/NAME.wav against ENHANCED_DIR/NAME.wav, one clip after another on one thread
    (METRICS: comma-separated, default stoi,estoi,segsnr). Writes {"clips": {NAME: {metric:
    value}}, "seconds": reading and scoring inside the process, imports excluded} to OUT.json.

score_reference.py compare SEKIT.json PYTHON.json TOLERANCE
    Checks that `sekit score --format json` and `score` above give the same numbers: prints the
    largest absolute difference per metric and exits 1 if a clip is missing on either side or a
    difference exceeds TOLERANCE.
"""
import json
import os
import sys
import time

import numpy as np
import soundfile as sf
from pystoi import stoi

MATLAB_EPS = np.finfo(np.float64).eps  # 2.220446049250313e-16, MATLAB's eps
SEGSNR_MIN_DB, SEGSNR_MAX_DB = -10.0, 35.0  # comp_snr.m's per-frame clamp


def segmental_snr(clean, processed, fs):
    """Loizou comp_snr.m: round(0.03 fs)-sample frames weighted by MATLAB's hanning(len),
    hop floor(len/4) (75% overlap), floor(N/hop - len/hop) frames; per frame
    10 log10(sum(c^2) / (sum((c - p)^2) + eps) + eps), clamped to [-10, 35] dB; the mean."""
    length = int(round(0.03 * fs))
    hop = length // 4
    frames = int(np.floor(len(clean) / hop - length / hop))
    window = 0.5 * (1 - np.cos(2 * np.pi * np.arange(1, length + 1) / (length + 1)))
    index = np.arange(frames)[:, None] * hop + np.arange(length)[None, :]
    c = clean[index] * window
    p = processed[index] * window
    signal = np.sum(c * c, axis=1)
    noise = np.sum((c - p) ** 2, axis=1)
    snr = 10 * np.log10(signal / (noise + MATLAB_EPS) + MATLAB_EPS)
    return float(np.mean(np.clip(snr, SEGSNR_MIN_DB, SEGSNR_MAX_DB)))


def score(clean_dir, enhanced_dir, out_path, metrics="stoi,estoi,segsnr"):
    metrics = metrics.split(",")
    t0 = time.perf_counter()
    clips = {}
    for name in sorted(os.listdir(clean_dir)):
        if not name.endswith(".wav"):
            continue
        x, fs = sf.read(os.path.join(clean_dir, name), dtype="float64")
        y, fs_y = sf.read(os.path.join(enhanced_dir, name), dtype="float64")
        if fs != fs_y or x.shape != y.shape:
            raise SystemExit(f"score_reference.py: {name}: rate or length differs")
        values = {}
        for metric in metrics:
            if metric == "stoi":
                values[metric] = float(stoi(x, y, fs))
            elif metric == "estoi":
                values[metric] = float(stoi(x, y, fs, extended=True))
            elif metric == "segsnr":
                values[metric] = segmental_snr(x, y, fs)
            else:
                raise SystemExit(f"score_reference.py: unknown metric {metric}")
        clips[name] = values
    seconds = time.perf_counter() - t0
    with open(out_path, "w") as f:
        json.dump({"clips": clips, "seconds": seconds}, f)


def compare(sekit_path, python_path, tolerance):
    with open(sekit_path) as f:
        ours = {c["clip_id"]: c for c in json.load(f)["clips"]}
    with open(python_path) as f:
        theirs = json.load(f)["clips"]
    ok = True
    if set(ours) != set(theirs):
        print(f"clips differ: sekit {len(ours)}, python {len(theirs)}")
        ok = False
    failed = [name for name, c in ours.items() if c.get("error")]
    if failed:
        print(f"sekit could not score {len(failed)} clips, e.g. {failed[0]}: {ours[failed[0]]['error']}")
        ok = False
    worst = {}
    for name, values in theirs.items():
        for metric, value in values.items():
            diff = abs(ours.get(name, {}).get("metrics", {}).get(metric, float("nan")) - value)
            if not diff <= worst.get(metric, (0.0, ""))[0]:
                worst[metric] = (diff, name)
    parts = []
    for metric, (diff, name) in worst.items():
        parts.append(f"{metric} {diff:.1e}")
        if not diff <= tolerance:
            ok = False
            print(f"{metric}: {name} differs by {diff} (tolerance {tolerance})")
    print(f"agreement over {len(theirs)} clips, max |sekit - python|: " + ", ".join(parts)
          + (f"  (all <= {tolerance:g})" if ok else "  DISAGREE"))
    return 0 if ok else 1


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "score":
        score(*args)
    elif command == "compare":
        sys.exit(compare(args[0], args[1], float(args[2])))
    else:
        raise SystemExit(__doc__)
