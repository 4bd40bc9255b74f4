"""Python side of scripts/bench/paper_metrics.sh: the paper metrics the way the SEGAN and DEMUCS
denoiser evaluation scripts compute them, one clip after another on one thread.

paper_metrics_reference.py score CLEAN_DIR ENHANCED_DIR OUT.json
    Per pair CLEAN_DIR/NAME.wav, ENHANCED_DIR/NAME.wav: pesq_wb = pesq.pesq(16000, ref, deg, 'wb')
    (pesq 0.0.4, the ITU-T code), stoi = pystoi.stoi (0.4.1), segsnr = comp_snr.m (numpy, from
    score_reference.py), and csig/cbak/covl = Hu & Loizou's composite.m: LLR, WSS and segSNR in
    numpy below, written from the published equations and the MATLAB algorithm, with pesq_wb.
    Writes {"clips": {NAME: {metric: value}}, "seconds": inside the process (imports excluded),
    "pesq_seconds": the part spent in pesq.pesq} to OUT.json.

paper_metrics_reference.py exact CLEAN_DIR ENHANCED_DIR PYTHON.json OUT.json
    PYTHON.json (from `score`) with csig and covl recomputed from composite.m's LLR computed without
    rounding error (llr_frames_exact: the same definition on the same Double frames, in
    double-double arithmetic); prints how far the loop's Double values were from it. Not timed: the
    loop above is what evaluation scripts run; this is what the comparison is made against.

paper_metrics_reference.py dnsmos DIR COUNT OUT.json
    speechmos.dnsmos.run(samples, 16000) on the first COUNT files of DIR (sorted), as its README
    shows; writes dnsmos_sig/bak/ovrl/p808 per clip and the seconds, as above.

paper_metrics_reference.py compare SEKIT.json PYTHON.json TOLERANCE
    Checks `sekit score --format json` against the above: PESQ must be equal bit for bit, every
    other metric within TOLERANCE; exits 1 otherwise (or when a clip is missing or failed), saying
    how many of the disagreeing clips have frames of digital silence in the clean signal. Run it on
    the output of `exact` for csig and covl.
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


# composite.m's LLR computed without rounding error: the same definition on the same windowed
# Double frames, in double-double arithmetic (about 106 bits; Dekker 1971, Ogita, Rump & Oishi
# 2005), vectorised over frames. On frames of digital silence (eps times the window) the
# denominator is ~2e-11 of R0 and its relative condition number ~1e13, so Double arithmetic (the
# loop above, MATLAB, any order of summation) is off by up to ~0.06 in a frame's LLR; here every
# lag is the exact sum of exact products up to ~n^2 u^2 R0 and the recursion works with u^2 ~ 1e-32.
SPLITTER = 134217729.0  # Veltkamp's 2^27 + 1


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


def _split(a):
    t = SPLITTER * a
    hi = t - (t - a)
    return hi, a - hi


def _dd_add(a, b):
    s, e = _two_sum(a[0], b[0])
    t, f = _two_sum(a[1], b[1])
    s, e = _fast_two_sum(s, e + t)
    return _fast_two_sum(s, e + f)


def _dd_neg(a):
    return -a[0], -a[1]


def _dd_mul(a, b):
    p = a[0] * b[0]
    (ah, al), (bh, bl) = _split(a[0]), _split(b[0])
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return _fast_two_sum(p, e + (a[0] * b[1] + a[1] * b[0]))


def _dd_div(a, b):
    q = a[0] / b[0]
    r = _dd_add(a, _dd_neg(_dd_mul(b, (q, np.zeros_like(q)))))
    return _fast_two_sum(q, r[0] / b[0])


def lags_dd(frames_, order):
    """R0..RP of each frame as double-doubles: exact products (Dekker's TwoProduct on split
    samples), summed pairwise with TwoSum, the rounding errors added in Double at the end."""
    n = frames_.shape[1]
    hi, lo = _split(frames_)
    lags = []
    for k in range(order + 1):
        p = frames_[:, : n - k] * frames_[:, k:]
        errors = [np.sum(((hi[:, : n - k] * hi[:, k:] - p) + hi[:, : n - k] * lo[:, k:]
                          + lo[:, : n - k] * hi[:, k:]) + lo[:, : n - k] * lo[:, k:], axis=1)]
        while p.shape[1] > 1:
            if p.shape[1] % 2:
                p = np.concatenate([p, np.zeros((len(p), 1))], axis=1)
            p, e = _two_sum(p[:, 0::2], p[:, 1::2])
            errors.append(np.sum(e, axis=1))
        lags.append(_two_sum(p[:, 0], np.sum(errors, axis=0)))
    return lags


def lpc_dd(frames_, order):
    """lpc() in double-double: the lags, the polynomial [1, -a1, ..., -aP] and the final
    prediction error (equal to a R a' in exact arithmetic), each a (hi, lo) pair of arrays."""
    r = lags_dd(frames_, order)
    zero = np.zeros(len(frames_))
    one = (np.ones(len(frames_)), zero)
    a, e = [(zero, zero)] * order, r[0]
    for i in range(order):
        residual = r[i + 1]
        for j in range(i):
            residual = _dd_add(residual, _dd_neg(_dd_mul(a[j], r[i - j])))
        k = _dd_div(residual, e)
        a = [_dd_add(a[j], _dd_neg(_dd_mul(k, a[i - 1 - j]))) for j in range(i)] + [k] + a[i + 1:]
        e = _dd_mul(_dd_add(one, _dd_neg(_dd_mul(k, k))), e)
    return r, [one] + [_dd_neg(v) for v in a], e


def llr_frames_exact(clean, processed, fs):
    """llr_frames() without rounding error (to ~1e-15 per frame): log(a_p R_c a_p' / e_c) in
    double-double, e_c the clean frame's prediction error from the recursion."""
    order = 10 if fs < 10000 else 16
    r_clean, _, e_clean = lpc_dd(frames(clean, fs), order)
    _, a_proc, _ = lpc_dd(frames(processed, fs), order)
    numerator = (np.zeros(len(e_clean[0])),) * 2
    for k in range(order + 1):  # a R a' = r0 sum a_i^2 + 2 sum_k r_k sum_i a_i a_(i+k)
        lagged = (np.zeros(len(e_clean[0])),) * 2
        for i in range(order + 1 - k):
            lagged = _dd_add(lagged, _dd_mul(a_proc[i], a_proc[i + k]))
        term = _dd_mul(r_clean[k], lagged)
        numerator = _dd_add(numerator, term if k == 0 else (2 * term[0], 2 * term[1]))
    return np.log(_dd_div(numerator, e_clean)[0])


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


def composite_inputs(clean, processed, fs):
    """composite.m's LLR, WSS and segSNR: eps added to both signals, LLR and WSS means of the lowest
    95% frames, segSNR (its snr(), comp_snr.m's frames) on the same signals."""
    clean, processed = clean + MATLAB_EPS, processed + MATLAB_EPS
    return {"llr": trimmed_mean(llr_frames(clean, processed, fs)), "wss": trimmed_mean(wss_frames(clean, processed, fs)),
            "segsnr": segmental_snr(clean, processed, fs)}


def combine(pesq_wb, llr, wss, segsnr):
    """Hu & Loizou's regressions, each limited to [1, 5]: csig, cbak, covl."""
    csig = 3.093 - 1.029 * llr + 0.603 * pesq_wb - 0.009 * wss
    cbak = 1.634 + 0.478 * pesq_wb - 0.007 * wss + 0.063 * segsnr
    covl = 1.594 + 0.805 * pesq_wb - 0.512 * llr - 0.007 * wss
    return [float(min(5.0, max(1.0, v))) for v in (csig, cbak, covl)]


def wav_names(folder):
    return sorted(name for name in os.listdir(folder) if name.endswith(".wav"))


def score(clean_dir, enhanced_dir, out_path):
    from pesq import pesq
    from pystoi import stoi
    t0 = time.perf_counter()
    pesq_seconds = 0.0
    clips, silent, inputs = {}, {}, {}
    for name in wav_names(clean_dir):
        ref, fs = sf.read(os.path.join(clean_dir, name), dtype="float64")
        deg, fs_deg = sf.read(os.path.join(enhanced_dir, name), dtype="float64")
        if fs != 16000 or fs_deg != fs or ref.shape != deg.shape:
            raise SystemExit(f"paper_metrics_reference.py: {name}: not a 16 kHz pair of equal length")
        t = time.perf_counter()
        pesq_wb = float(pesq(fs, ref, deg, "wb"))
        pesq_seconds += time.perf_counter() - t
        inputs[name] = dict(composite_inputs(ref, deg, fs), pesq_wb=pesq_wb)
        csig, cbak, covl = combine(**inputs[name])
        clips[name] = {"pesq_wb": pesq_wb, "csig": csig, "cbak": cbak, "covl": covl,
                       "segsnr": segmental_snr(ref, deg, fs), "stoi": float(stoi(ref, deg, fs))}
        silent[name] = int(np.sum(np.all(frames(ref, fs) == 0, axis=1)))
    with open(out_path, "w") as f:
        json.dump({"clips": clips, "seconds": time.perf_counter() - t0, "pesq_seconds": pesq_seconds,
                   "silent_frames": silent, "composite_inputs": inputs}, f)


def exact(clean_dir, enhanced_dir, python_path, out_path):
    """The loop's results (PYTHON.json from `score`) with csig and covl recomputed from composite.m's
    LLR without rounding error (llr_frames_exact); prints how far the loop's Double values are."""
    with open(python_path) as f:
        result = json.load(f)
    worst = {"csig": 0.0, "covl": 0.0, "llr": 0.0}
    for name, values in result["clips"].items():
        ref, fs = sf.read(os.path.join(clean_dir, name), dtype="float64")
        deg, _ = sf.read(os.path.join(enhanced_dir, name), dtype="float64")
        inputs = dict(result["composite_inputs"][name])
        llr = trimmed_mean(llr_frames_exact(ref + MATLAB_EPS, deg + MATLAB_EPS, fs))
        worst["llr"] = max(worst["llr"], abs(llr - inputs["llr"]))
        inputs["llr"] = llr
        csig, _, covl = combine(**inputs)
        worst["csig"] = max(worst["csig"], abs(csig - values["csig"]))
        worst["covl"] = max(worst["covl"], abs(covl - values["covl"]))
        values.update(csig=csig, covl=covl)
        result["composite_inputs"][name] = inputs
    with open(out_path, "w") as f:
        json.dump(result, f)
    print("composite.m in Double (the loop) vs without rounding error: LLR up to %.2g, csig %.2g, covl %.2g"
          % (worst["llr"], worst["csig"], worst["covl"]))


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
    elif command == "exact":
        exact(*args)
    elif command == "dnsmos":
        dnsmos(*args)
    elif command == "compare":
        sys.exit(compare(args[0], args[1], float(args[2])))
    else:
        raise SystemExit(__doc__)
