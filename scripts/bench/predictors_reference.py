"""The quality predictors' packages called directly in a Python loop, for scripts/bench/predictors.sh.

    predictors_reference.py METRIC CLEAN_DIR DEGRADED_DIR COUNT OUT.json
        scores the first COUNT files (sorted) of DEGRADED_DIR (against CLEAN_DIR for the intrusive
        ones) as a user of the package would, one clip after another, and writes
        {"clips": {name: [values]}, "seconds": loop seconds (imports and model loading included)}.
    predictors_reference.py compare SEKIT.json OURS.json METRIC TOLERANCE
        exits 1 unless every value of SEKit's `sekit score --format json` equals the loop's within TOLERANCE.

WADA-SNR and LSD have no package: the loop runs the numpy transcriptions of the tests
(Tests/SEKitTests/Metrics/WADASNRTests.swift, LogSpectralDistanceTests.swift), as a user would write them.

One core: the loop is held to one thread, as sekit's workers are (one worker per --jobs), so that the
benchmark's wall and CPU columns compare one core with one core. `taskset -c 0` alone does not do it:
ONNX Runtime sizes its thread pools by the machine's cores, not the process's affinity. So, before any
package is imported, onnxruntime.InferenceSession is replaced by a subclass that sets
intra_op_num_threads = inter_op_num_threads = 1 on the options of every session the packages create
(speechmos' DNSMOS and PLCMOS call ort.InferenceSession(path)), and torch.set_num_threads(1) and
set_num_interop_threads(1) hold PyTorch (Distill-MOS) to one; ViSQOL's lattice model already runs with
num_threads=1, and predictors.sh sets OMP/BLAS/numba threads to 1. The packages' own code is unchanged.
"""
import json
import os
import re
import sys
import time

import numpy as np
import soundfile

OUTPUTS = {"dnsmos_personalized": ["dnsmos_personalized_sig", "dnsmos_personalized_bak", "dnsmos_personalized_ovrl"]}
WADA_TABLE = None


def read(path):
    samples, rate = soundfile.read(path, dtype="float32")
    return samples.astype(np.float64), rate


def wada_snr(x):
    table = WADA_TABLE
    x = x / np.abs(x).max()
    z = np.maximum(np.abs(x), 1e-10)
    g = np.log(max(1e-10, z.mean())) - np.log(z).mean()
    below = np.nonzero(table < g)[0]
    if len(below) == 0:
        return -20.0
    i = below[-1]
    if i == len(table) - 1:
        return 100.0
    return -20 + i + (g - table[i]) / (table[i + 1] - table[i])


def lsd(a, b, n=2048, hop=512, floor=1e-10):
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)
    starts = range(0, len(a) - n + 1, hop)
    power = lambda x: np.abs(np.fft.rfft(np.stack([x[s:s + n] * window for s in starts]), axis=1)) ** 2
    difference = 10 * np.log10(power(a) + floor) - 10 * np.log10(power(b) + floor)
    return float(np.mean(np.sqrt(np.mean(difference ** 2, axis=1))))


def one_thread(metric):
    """The package of `metric` held to one thread (see the module's notes); nothing imported that it does not use."""
    if metric in ("plcmos", "dnsmos_personalized"):
        import onnxruntime

        class OneThreadSession(onnxruntime.InferenceSession):
            def __init__(self, path_or_bytes, sess_options=None, *args, **kwargs):
                options = sess_options or onnxruntime.SessionOptions()
                options.intra_op_num_threads = 1
                options.inter_op_num_threads = 1
                super().__init__(path_or_bytes, options, *args, **kwargs)

        onnxruntime.InferenceSession = OneThreadSession
    if metric == "distillmos":
        import torch
        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)


def scorer(metric):
    """A function (clean, degraded, rate) -> [values], set up as the package's users do."""
    if metric == "wada_snr":
        global WADA_TABLE
        source = open(os.path.join(os.path.dirname(__file__), "../../Tests/SEKitTests/Metrics/WADASNRTests.swift")).read()
        start = source.index("table = np.array([")
        WADA_TABLE = np.array([float(v) for v in re.findall(r"\d\.\d+", source[start:source.index("])", start)])])
        return lambda clean, degraded, rate: [wada_snr(degraded)]
    if metric == "lsd":
        return lambda clean, degraded, rate: [lsd(clean, degraded)]
    if metric == "plcmos":
        import speechmos.plcmos

        def plcmos(clean, degraded, rate):
            np.random.seed(0)
            return [speechmos.plcmos.run(degraded, rate)["plcmos"]]
        return plcmos
    if metric == "dnsmos_personalized":
        import speechmos.dnsmos

        def personalized(clean, degraded, rate):
            scores = speechmos.dnsmos.run(degraded, rate, model_type="dnsmos_personalized")
            return [scores["sig_mos"], scores["bak_mos"], scores["ovrl_mos"]]
        return personalized
    if metric.startswith("visqol_"):
        import visqol
        api = visqol.VisqolApi()
        api.create(mode=metric.split("_")[1])
        return lambda clean, degraded, rate: [api.measure_from_arrays(clean, degraded, rate).moslqo]
    if metric == "distillmos":
        import types
        import torch
        try:
            import torchaudio  # noqa: F401
        except (ImportError, OSError):
            sys.modules["torchaudio"] = types.ModuleType("torchaudio")
        import distillmos
        model = distillmos.ConvTransformerSQAModel()
        model.eval()
        torch.set_grad_enabled(False)
        return lambda clean, degraded, rate: [model(torch.from_numpy(degraded.astype(np.float32))[None, :]).item()]
    raise SystemExit(f"unknown metric {metric}")


def score(metric, clean_dir, degraded_dir, count, out):
    start = time.perf_counter()
    one_thread(metric)
    run = scorer(metric)
    names = sorted(f for f in os.listdir(degraded_dir) if f.endswith(".wav"))[:count]
    clips = {}
    for name in names:
        degraded, rate = read(os.path.join(degraded_dir, name))
        clean, _ = read(os.path.join(clean_dir, name))
        clips[name] = [float(v) for v in run(clean, degraded, rate)]
    json.dump({"clips": clips, "seconds": time.perf_counter() - start}, open(out, "w"))


def compare(sekit_json, ours_json, metric, tolerance):
    sekit = json.load(open(sekit_json))
    ours = json.load(open(ours_json))["clips"]
    outputs = OUTPUTS.get(metric, [metric])
    worst = 0.0
    for clip in sekit["clips"]:
        name = clip["clip_id"] if clip["clip_id"].endswith(".wav") else clip["clip_id"] + ".wav"
        for output, value in zip(outputs, ours[os.path.basename(name)]):
            worst = max(worst, abs(clip["metrics"][output] - value))
    print(f"  {metric}: {len(sekit['clips'])} clips, largest difference from the package {worst:.2g}")
    return worst <= tolerance


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        sys.exit(0 if compare(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])) else 1)
    score(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
