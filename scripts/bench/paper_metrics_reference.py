"""Python side of scripts/bench/paper_metrics.sh: the paper metrics the way the SEGAN and DEMUCS
denoiser evaluation scripts compute them, one clip after another on one thread.

paper_metrics_reference.py score CLEAN_DIR ENHANCED_DIR OUT.json
    Per pair CLEAN_DIR/NAME.wav, ENHANCED_DIR/NAME.wav: pesq_wb = pesq.pesq(16000, ref, deg, 'wb')
    (pesq 0.0.4, the ITU-T code), stoi = pystoi.stoi (0.4.1), segsnr = comp_snr.m (numpy, from
    score_reference.py), and csig/cbak/covl = Hu & Loizou's composite.m: LLR, WSS and segSNR in
    numpy below, written from the published equations and the MATLAB algorithm, with pesq_wb.
    Writes {"clips": {NAME: {metric: value}}, "seconds": inside the process (imports excluded),
    "pesq_seconds": the part spent in pesq.pesq} to OUT.json.

paper_metrics_reference.py dnsmos DIR COUNT OUT.json
    speechmos.dnsmos.run(samples, 16000) on the first COUNT files of DIR (sorted), as its README
    shows; writes dnsmos_sig/bak/ovrl/p808 per clip and the seconds, as above.

paper_metrics_reference.py compare SEKIT.json PYTHON.json TOLERANCE
    Checks `sekit score --format json` against the above: PESQ must be equal bit for bit, every
    other metric within TOLERANCE; exits 1 otherwise (or when a clip is missing or failed), saying
    how many of the disagreeing clips have frames of digital silence in the clean signal.
"""
import json
import os
import sys
import time

import numpy as np
import soundfile as sf

import score_reference
from score_reference import MATLAB_EPS, segmental_snr

ALPHA = 0.95  # composite.m averages the lowest 95% of the LLR and WSS frame values
# Critical bands of comp_wss.m / composite.m's wss() (Pellom & Hansen): centre and bandwidth, Hz.
CENTRES = np.array([50.0, 120, 190, 260, 330, 400, 470, 540, 617.372, 703.378, 798.717, 904.128,
                    1020.38, 1148.30, 1288.72, 1442.54, 1610.70, 1794.16, 1993.93, 2211.08, 2446.71,
                    2701.97, 2978.04, 3276.17, 3597.63])
BANDWIDTHS = np.array([70.0, 70, 70, 70, 70, 70, 70, 77.3724, 86.0056, 95.3398, 105.411, 116.256,
                       127.914, 140.423, 153.823, 168.154, 183.457, 199.776, 217.153, 235.631,
                       255.255, 276.072, 298.126, 321.465, 346.136])
K_MAX, K_LOC_MAX = 20.0, 1.0  # Klatt's weights


def frames(signal, fs):
    """composite.m framing: round(0.03 fs) samples, hop floor(len/4), floor(N/hop - len/hop)
    frames (MATLAB's `for 1:num_frames`), each times hanning(len) = 0.5(1 - cos(2 pi n/(len+1)))."""
    length = int(round(0.03 * fs))
    hop = length // 4
    count = int(np.floor(len(signal) / hop - length / hop))
    window = 0.5 * (1 - np.cos(2 * np.pi * np.arange(1, length + 1) / (length + 1)))
    index = np.arange(count)[:, None] * hop + np.arange(length)[None, :]
    return signal[index] * window


def trimmed_mean(values):
    """mean(sort(v)(1:round(n*alpha))), MATLAB's round (half away from zero)."""
    keep = max(1, int(np.floor(len(values) * ALPHA + 0.5)))
    return float(np.mean(np.sort(values)[:keep]))


def lpc(frames_, order):
    """lpcoeff: autocorrelation lags R0..RP per frame and the Levinson-Durbin recursion; returns
    the lags and the polynomials [1, -a1, ..., -aP], one row per frame."""
    n = frames_.shape[1]
    r = np.stack([np.sum(frames_[:, : n - k] * frames_[:, k:], axis=1) for k in range(order + 1)], axis=1)
    a = np.zeros((len(frames_), order))
    e = r[:, 0].copy()
    for i in range(order):
        k = (r[:, i + 1] - np.sum(a[:, :i] * r[:, i:0:-1], axis=1)) / e
        if i:
            a[:, :i] = a[:, :i] - k[:, None] * a[:, i - 1::-1]
        a[:, i] = k
        e = (1 - k * k) * e
    return r, np.concatenate([np.ones((len(frames_), 1)), -a], axis=1)


def llr_frames(clean, processed, fs):
    """Per-frame log(a_p R_c a_p' / a_c R_c a_c') with R_c = toeplitz(clean lags); composite.m
    keeps every value (no min(2, .) as comp_llr.m)."""
    order = 10 if fs < 10000 else 16
    r_clean, a_clean = lpc(frames(clean, fs), order)
    _, a_proc = lpc(frames(processed, fs), order)
    lag = np.abs(np.arange(order + 1)[:, None] - np.arange(order + 1)[None, :])
    toeplitz = r_clean[:, lag]
    numerator = np.einsum("fi,fij,fj->f", a_proc, toeplitz, a_proc)
    denominator = np.einsum("fi,fij,fj->f", a_clean, toeplitz, a_clean)
    return np.log(numerator / denominator)


def band_energies(frames_, fs):
    """10 log10(max(E, 1e-10)) of the 25 critical-band energies of |fft(frame, nfft)|^2."""
    length = frames_.shape[1]
    nfft = 1 << int(np.ceil(np.log2(2 * length)))
    half = nfft // 2
    f0 = np.floor(CENTRES / (fs / 2) * half)
    bw = BANDWIDTHS / (fs / 2) * half
    filters = np.exp(-11 * ((np.arange(half)[None, :] - f0[:, None]) / bw[:, None]) ** 2
                     + (np.log(BANDWIDTHS[0]) - np.log(BANDWIDTHS))[:, None])
    filters *= filters > np.exp(-30.0 / (2.0 * 2.303))
    power = np.abs(np.fft.fft(frames_, nfft, axis=1)[:, :half]) ** 2
    return 10 * np.log10(np.maximum(power @ filters.T, 1e-10))


def nearest_peaks(energy, slope):
    """composite.m step 5 per band i: while the slope is > 0 search right, peak = E(n-1) where the
    search stopped; else search left while the slope is <= 0, peak = E(n+1)."""
    frames_, m = slope.shape
    rows = np.arange(frames_)
    # stop_right[:, i]: first n >= i with slope <= 0 (m if none); stop_left: last n <= i with slope > 0 (-1).
    stop_right = np.full((frames_, m + 1), m)
    for i in range(m - 1, -1, -1):
        stop_right[:, i] = np.where(slope[:, i] <= 0, i, stop_right[:, i + 1])
    stop_left = np.full((frames_, m), -1)
    for i in range(m):
        stop_left[:, i] = np.where(slope[:, i] > 0, i, stop_left[:, i - 1] if i else -1)
    index = np.where(slope > 0, stop_right[:, :m] - 1, stop_left + 1)
    return energy[rows[:, None], index]


def wss_frames(clean, processed, fs):
    """Klatt's weighted spectral slope per frame, as composite.m's wss()."""
    e_c, e_p = band_energies(frames(clean, fs), fs), band_energies(frames(processed, fs), fs)
    s_c, s_p = np.diff(e_c, axis=1), np.diff(e_p, axis=1)
    w_c = (K_MAX / (K_MAX + e_c.max(axis=1, keepdims=True) - e_c[:, :-1])
           * K_LOC_MAX / (K_LOC_MAX + nearest_peaks(e_c, s_c) - e_c[:, :-1]))
    w_p = (K_MAX / (K_MAX + e_p.max(axis=1, keepdims=True) - e_p[:, :-1])
           * K_LOC_MAX / (K_LOC_MAX + nearest_peaks(e_p, s_p) - e_p[:, :-1]))
    w = (w_c + w_p) / 2.0
    return np.sum(w * (s_c - s_p) ** 2, axis=1) / np.sum(w, axis=1)


def composite(clean, processed, fs, pesq_wb):
    """composite.m: eps added to both signals, LLR and WSS means of the lowest 95% frames, segSNR
    (its snr(), comp_snr.m's frames) on the same signals, then Hu & Loizou's regressions in [1, 5]."""
    clean, processed = clean + MATLAB_EPS, processed + MATLAB_EPS
    llr = trimmed_mean(llr_frames(clean, processed, fs))
    wss = trimmed_mean(wss_frames(clean, processed, fs))
    seg = segmental_snr(clean, processed, fs)
    csig = 3.093 - 1.029 * llr + 0.603 * pesq_wb - 0.009 * wss
    cbak = 1.634 + 0.478 * pesq_wb - 0.007 * wss + 0.063 * seg
    covl = 1.594 + 0.805 * pesq_wb - 0.512 * llr - 0.007 * wss
    return [float(min(5.0, max(1.0, v))) for v in (csig, cbak, covl)]


def wav_names(folder):
    return sorted(name for name in os.listdir(folder) if name.endswith(".wav"))


def score(clean_dir, enhanced_dir, out_path):
    from pesq import pesq
    from pystoi import stoi
    t0 = time.perf_counter()
    pesq_seconds = 0.0
    clips, silent = {}, {}
    for name in wav_names(clean_dir):
        ref, fs = sf.read(os.path.join(clean_dir, name), dtype="float64")
        deg, fs_deg = sf.read(os.path.join(enhanced_dir, name), dtype="float64")
        if fs != 16000 or fs_deg != fs or ref.shape != deg.shape:
            raise SystemExit(f"paper_metrics_reference.py: {name}: not a 16 kHz pair of equal length")
        t = time.perf_counter()
        pesq_wb = float(pesq(fs, ref, deg, "wb"))
        pesq_seconds += time.perf_counter() - t
        csig, cbak, covl = composite(ref, deg, fs, pesq_wb)
        clips[name] = {"pesq_wb": pesq_wb, "csig": csig, "cbak": cbak, "covl": covl,
                       "segsnr": segmental_snr(ref, deg, fs), "stoi": float(stoi(ref, deg, fs))}
        silent[name] = int(np.sum(np.all(frames(ref, fs) == 0, axis=1)))
    with open(out_path, "w") as f:
        json.dump({"clips": clips, "seconds": time.perf_counter() - t0, "pesq_seconds": pesq_seconds,
                   "silent_frames": silent}, f)


def dnsmos(folder, count, out_path):
    import speechmos.dnsmos
    t0 = time.perf_counter()
    clips = {}
    for name in wav_names(folder)[: int(count)]:
        samples, fs = sf.read(os.path.join(folder, name), dtype="float64")
        s = speechmos.dnsmos.run(samples, fs)
        clips[name] = {"dnsmos_sig": float(s["sig_mos"]), "dnsmos_bak": float(s["bak_mos"]),
                       "dnsmos_ovrl": float(s["ovrl_mos"]), "dnsmos_p808": float(s["p808_mos"])}
    with open(out_path, "w") as f:
        json.dump({"clips": clips, "seconds": time.perf_counter() - t0}, f)


def compare(sekit_path, python_path, tolerance):
    """score_reference.py's comparison (every metric within TOLERANCE), then PESQ bit for bit, and
    for the clips that disagree, how many have frames of digital silence in the clean signal."""
    status = score_reference.compare(sekit_path, python_path, tolerance)
    with open(sekit_path) as f:
        ours = {c["clip_id"]: c.get("metrics", {}) for c in json.load(f)["clips"]}
    with open(python_path) as f:
        python = json.load(f)
    silent = python.get("silent_frames", {})
    over = {}
    for name, values in python["clips"].items():
        for metric, value in values.items():
            diff = abs(ours.get(name, {}).get(metric, float("nan")) - value)
            if not diff <= (0.0 if metric.startswith("pesq") else tolerance):
                over.setdefault(metric, []).append(name)
    for metric in sorted({m for values in python["clips"].values() for m in values if m.startswith("pesq")} - set(over)):
        print(f"{metric}: equal bit for bit on all {len(python['clips'])} clips")
    for metric, names in over.items():
        status = 1
        note = (f"; {sum(silent.get(n, 0) > 0 for n in names)} of them have frames of digital silence in the"
                " clean signal, where composite.m's LLR is ill-conditioned" if silent else "")
        print(f"{metric}: {len(names)} clips differ beyond {0 if metric.startswith('pesq') else tolerance:g}{note}")
    return status


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "score":
        score(*args)
    elif command == "dnsmos":
        dnsmos(*args)
    elif command == "compare":
        sys.exit(compare(args[0], args[1], float(args[2])))
    else:
        raise SystemExit(__doc__)
