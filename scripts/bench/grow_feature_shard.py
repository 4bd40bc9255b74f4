#!/usr/bin/env python3
"""Grows a real feature shard (made by `sekit features --shard i/N`) to HOURS of audio, for timing
`sekit features merge` at scale.

Usage: grow_feature_shard.py SHARD.h5 OUT.h5 HOURS [--sparse]

OUT has SHARD's attributes, statistics and layout (the same chunking and type, unlimited rows);
its index repeats SHARD's clips cyclically as clips i-1, i-1+N, ... (ids s1-<7-digit index>)
until HOURS of audio, and its streams hold SHARD's frames repeated, written for real; with
--sparse the frames are left unwritten (HDF5 reads them as zeros), which is enough to time a
virtual merge, since it reads only indexes and statistics. Uses h5py and numpy.
"""
import sys

import h5py
import numpy as np


def main() -> None:
    source, target, hours = sys.argv[1], sys.argv[2], float(sys.argv[3])
    sparse = "--sparse" in sys.argv[4:]
    with h5py.File(source, "r") as src, h5py.File(target, "w", libver="earliest") as dst:
        shard, count = (int(x) for x in src.attrs["shard"].split("/"))
        hop, rate = int(src.attrs["hop_length"]), int(src.attrs["sample_rate"])
        frames_per_hour = 3600 * rate / hop
        template = {name: src["index/" + name][()] for name in ("num_frames", "snr_db")}
        splits = src["index/split"].asstr()[()]
        n_template = len(template["num_frames"])
        frames, clips = 0, 0
        num_frames = []
        while frames < hours * frames_per_hour:
            k = clips % n_template
            num_frames.append(int(template["num_frames"][k]))
            frames += num_frames[-1]
            clips += 1
        num_frames = np.array(num_frames, dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(num_frames)[:-1]]).astype(np.int64)
        clip_index = (shard - 1 + count * np.arange(clips)).astype(np.int64)
        strings = h5py.string_dtype("utf-8")
        for name in sorted(src.attrs):
            dst.attrs[name] = src.attrs[name]
        dst.create_dataset("index/clip_id", data=np.array([f"s1-{i:07d}" for i in clip_index], dtype=object), dtype=strings)
        dst.create_dataset("index/clip_index", data=clip_index)
        dst.create_dataset("index/num_frames", data=num_frames)
        dst.create_dataset("index/offset", data=offsets)
        dst.create_dataset("index/snr_db", data=np.resize(template["snr_db"], clips))
        dst.create_dataset("index/split", data=np.array([splits[i % n_template] for i in range(clips)], dtype=object), dtype=strings)
        for stream in src.attrs["streams"].split(","):
            data = src[stream]
            out = dst.create_dataset(stream, shape=(frames, data.shape[1]), maxshape=(None, data.shape[1]), dtype=data.dtype,
                                     chunks=data.chunks, compression=data.compression, compression_opts=data.compression_opts,
                                     shuffle=data.shuffle)
            if not sparse:
                block = data[()]
                for start in range(0, frames, len(block)):
                    stop = min(frames, start + len(block))
                    out[start:stop] = block[:stop - start]
        for group in src["stats"]:
            for name in ("mean", "std"):
                dst.create_dataset(f"stats/{group}/{name}", data=src[f"stats/{group}/{name}"][()])
            for key, value in src[f"stats/{group}"].attrs.items():
                dst[f"stats/{group}"].attrs[key] = value
    print(f"{target}: {clips} clips, {frames} frames ({frames / frames_per_hour:.2f} h){', sparse' if sparse else ''}")


if __name__ == "__main__":
    main()
