"""A re-implementation (numpy + soundfile, written for scripts/bench/mix.sh) of the DNS Challenge
synthesizer's mixing procedure, with its known faults fixed so that it does the same work as
`sekit mix --snr-mode global --level-mode rms --clipping rescale`:

for every clip: draw a clean file and a noise file, cut a random 4 s segment of the clean speech
(zero-padded when shorter) and of the noise (looped when shorter), normalise both to -25 dBFS
RMS, scale the noise so that 20 log10(rms(clean) / rms(noise)) is the drawn SNR, add, scale the
three signals to a drawn mixture level (RMS, -35..-15 dBFS), rescale all three when the mixture
peaks above 0.99, and write noisy, clean and noise as 16-bit WAV files. Unlike the original it
draws from a generator seeded per clip, keeps decoded sources in memory (the original re-reads
them for every clip) and measures levels on the exact segments used.

Usage: dns_mix_reference.py SPEECH_DIR NOISE_DIR OUT COUNT SEED"""
import glob, json, os, sys
import numpy as np, soundfile as sf

speech_dir, noise_dir, out, count, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rate, seconds = 16000, 4.0
length = int(rate * seconds)
speech = [sf.read(p, dtype="float64")[0] for p in sorted(glob.glob(f"{speech_dir}/**/*.wav", recursive=True))]
noises = [sf.read(p, dtype="float64")[0] for p in sorted(glob.glob(f"{noise_dir}/**/*.wav", recursive=True))]
for sub in ("noisy", "clean", "noise"):
    os.makedirs(f"{out}/{sub}", exist_ok=True)

def rms(x):
    return np.sqrt(np.mean(x ** 2))

def segment(x, rng, loop):
    if len(x) >= length:
        start = rng.integers(0, len(x) - length + 1)
        return x[start:start + length]
    if loop:
        reps = int(np.ceil(length / len(x))) + 1
        x = np.tile(x, reps)
        start = rng.integers(0, len(x) - length + 1)
        return x[start:start + length]
    return np.pad(x, (0, length - len(x)))

manifest = []
for index in range(count):
    rng = np.random.default_rng([seed, index])
    clean = segment(speech[rng.integers(len(speech))], rng, loop=False)
    noise = segment(noises[rng.integers(len(noises))], rng, loop=True)
    snr = rng.uniform(-5, 20)
    clean = clean * (10 ** (-25 / 20) / rms(clean))
    noise = noise * (10 ** (-25 / 20) / rms(noise))
    noise = noise * (rms(clean) / (10 ** (snr / 20)) / rms(noise))
    noisy = clean + noise
    scale = 10 ** (rng.uniform(-35, -15) / 20) / rms(noisy)
    noisy, clean, noise = noisy * scale, clean * scale, noise * scale
    peak = np.max(np.abs(noisy))
    if peak > 0.99:
        noisy, clean, noise = noisy * (0.99 / peak), clean * (0.99 / peak), noise * (0.99 / peak)
    name = f"clip{index:07d}.wav"
    for sub, x in (("noisy", noisy), ("clean", clean), ("noise", noise)):
        sf.write(f"{out}/{sub}/{name}", x, rate, subtype="PCM_16")
    manifest.append({"clip_id": name[:-4], "snr_db": snr})
with open(f"{out}/manifest.jsonl", "w") as f:
    f.writelines(json.dumps(r) + "\n" for r in manifest)
