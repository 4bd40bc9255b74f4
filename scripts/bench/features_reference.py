"""The librosa + h5py way to export magnitude features of a mixed corpus (the baseline of
scripts/bench/features.sh): for every clip of OUT/manifest.jsonl, librosa.stft of the noisy and
clean WAVs (512-point FFT, 512-sample periodic Hann, hop 256, centred with zero padding), |X| as
float32, appended to two resizable [frames, 257] datasets chunked like SEKit's (510 frames), plus
the clip index. Usage: features_reference.py CORPUS OUT.h5"""
import json, sys
import h5py, librosa, numpy as np, soundfile as sf

corpus, out = sys.argv[1], sys.argv[2]
records = [json.loads(line) for line in open(f"{corpus}/manifest.jsonl") if line.strip()]
bins = 257
with h5py.File(out, "w") as f:
    streams = {name: f.create_dataset(name, shape=(0, bins), maxshape=(None, bins), dtype="<f4", chunks=(510, bins))
               for name in ("noisy", "clean")}
    ids, offsets, counts, snrs, splits = [], [], [], [], []
    total = 0
    for r in records:
        mags = {}
        for name in ("noisy", "clean"):
            x, sr = sf.read(f"{corpus}/{r[name]}", dtype="float32")
            mags[name] = np.abs(librosa.stft(x, n_fft=512, hop_length=256, win_length=512, window="hann",
                                             center=True, pad_mode="constant")).T.astype(np.float32)
        n = mags["noisy"].shape[0]
        for name, m in mags.items():
            streams[name].resize(total + n, axis=0)
            streams[name][total:total + n] = m
        ids.append(r["clip_id"]); offsets.append(total); counts.append(n)
        snrs.append(r["snr_db_requested"]); splits.append(r["split"])
        total += n
    index = f.create_group("index")
    index["clip_id"] = np.array(ids, dtype=h5py.string_dtype())
    index["offset"] = np.array(offsets, dtype="<i8")
    index["num_frames"] = np.array(counts, dtype="<i8")
    index["snr_db"] = np.array(snrs, dtype="<f8")
    index["split"] = np.array(splits, dtype=h5py.string_dtype())
    f.attrs.update(n_fft=512, hop_length=256, win_length=512, window="hann", center=1, sample_rate=16000)
print(json.dumps({"clips": len(records), "frames": total}))
