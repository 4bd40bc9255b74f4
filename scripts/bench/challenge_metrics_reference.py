"""Python side of scripts/bench/challenge_metrics.sh: the reference implementations of the challenge
measures called the way an evaluation script calls them, one clip after another.

challenge_metrics_reference.py sdr CLEAN_DIR ENHANCED_DIR OUT.json
    mir_eval.separation.bss_eval_sources(ref[None], est[None]) (mir-eval 0.8.2) per pair
    CLEAN_DIR/NAME.wav, ENHANCED_DIR/NAME.wav (sorted); writes {"clips": {NAME.wav (the clip id sekit gives it): {"sdr": ..., "sar": ...}},
    "seconds": inside the process, imports excluded} (SIR is +inf for one source, in both: not compared).

challenge_metrics_reference.py srmr DIR COUNT OUT.json
    torchmetrics 1.9's speech_reverberation_modulation_energy_ratio(x, 16000) (default form) on the
    first COUNT files of DIR (sorted). torchaudio 2.11's PyPI wheel carries a CUDA build of its C++
    extension, which does not load beside the CPU-only torch: it lives beside the environment
    (srmr-reference/) and is imported without the extension, so its lfilter runs its Python loop (as
    SRMRTests does).

challenge_metrics_reference.py speaker CLEAN_DIR ENHANCED_DIR OUT.json
    Resemblyzer 0.1.4 as its README calls it, per pair (sorted): both files preprocess_wav-ed (read by
    librosa) and embed_utterance-d by one VoiceEncoder on the CPU (one torch thread); writes the
    embeddings' cosine as "speaker_similarity".

challenge_metrics_reference.py asr CLEAN_DIR ENHANCED_DIR OUT.json
    pocketsphinx 5.1.1 (Decoder at 16 kHz, its US-English models) transcribes both files of each pair
    (read as int16, one utterance) and jiwer 4.0 scores the second against the first: "wer_vs_clean",
    "cer_vs_clean".
"""
import json
import os
import sys
import time
import types

import numpy as np
import soundfile as sf


def wavs(folder, count=None):
    names = sorted(n for n in os.listdir(folder) if n.endswith(".wav"))
    return names if count is None else names[:count]


def write(out, clips, seconds):
    with open(out, "w") as f:
        json.dump({"clips": clips, "seconds": seconds}, f)


def sdr(clean_dir, enhanced_dir, out):
    import mir_eval
    start = time.perf_counter()
    clips = {}
    for name in wavs(clean_dir):
        ref, _ = sf.read(os.path.join(clean_dir, name), dtype="float32")
        est, _ = sf.read(os.path.join(enhanced_dir, name), dtype="float32")
        s, i, a, _ = mir_eval.separation.bss_eval_sources(ref[np.newaxis, :].astype(np.float64),
                                                          est[np.newaxis, :].astype(np.float64))
        clips[name] = {"sdr": float(s[0]), "sar": float(a[0])}
    write(out, clips, time.perf_counter() - start)


def srmr(folder, count, out):
    sys.path.insert(0, os.path.join(sys.prefix, "srmr-reference"))  # scripts/requirements-srmr-reference.txt
    shim = types.ModuleType("torchaudio._extension")
    shim._IS_TORCHAUDIO_EXT_AVAILABLE = False
    shim._IS_ALIGN_AVAILABLE = False
    shim.fail_if_no_align = lambda f: f
    shim._check_cuda_version = lambda: None
    sys.modules["torchaudio._extension"] = shim
    import torch
    from torchmetrics.functional.audio.srmr import speech_reverberation_modulation_energy_ratio
    torch.set_num_threads(1)
    start = time.perf_counter()
    clips = {}
    for name in wavs(folder, int(count)):
        x, rate = sf.read(os.path.join(folder, name), dtype="float32")
        value = speech_reverberation_modulation_energy_ratio(torch.from_numpy(x.astype(np.float64)), rate)
        clips[name] = {"srmr": float(value)}
    write(out, clips, time.perf_counter() - start)


def speaker(clean_dir, enhanced_dir, out):
    import torch
    from resemblyzer import VoiceEncoder, preprocess_wav
    torch.set_num_threads(1)
    start = time.perf_counter()
    encoder = VoiceEncoder(device="cpu", verbose=False)
    clips = {}
    for name in wavs(clean_dir):
        a = encoder.embed_utterance(preprocess_wav(os.path.join(clean_dir, name))).astype(np.float64)
        b = encoder.embed_utterance(preprocess_wav(os.path.join(enhanced_dir, name))).astype(np.float64)
        clips[name] = {"speaker_similarity": float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))}
    write(out, clips, time.perf_counter() - start)


def asr(clean_dir, enhanced_dir, out):
    import jiwer
    from pocketsphinx import Decoder
    start = time.perf_counter()
    decoder = Decoder(samprate=16000, loglevel="FATAL")

    def transcript(path):
        pcm, _ = sf.read(path, dtype="int16")
        decoder.reinit_feat()  # each file from the decoder's initial state, as a fresh decoder (and SEKit) decodes it
        decoder.start_utt()
        decoder.process_raw(pcm.tobytes(), full_utt=True)
        decoder.end_utt()
        return decoder.hyp().hypstr

    clips = {}
    for name in wavs(clean_dir):
        truth = transcript(os.path.join(clean_dir, name))
        hypothesis = transcript(os.path.join(enhanced_dir, name))
        clips[name] = {"wer_vs_clean": float(jiwer.wer(truth, hypothesis)), "cer_vs_clean": float(jiwer.cer(truth, hypothesis))}
    write(out, clips, time.perf_counter() - start)


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"sdr": sdr, "srmr": srmr, "speaker": speaker, "asr": asr}[command](*args)
