"""Tests of sekit_dataset.py on a small file written here with h5py in the SEKit layout.

Run: python -m unittest experiments/python/test_sekit_dataset.py  (needs numpy and h5py only).
"""

import os
import pickle
import sys
import tempfile
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sekit_dataset import MissingShardError, SEKitFeatureDataset, check_shards, read_index  # noqa: E402


def write_sample(path, lengths=(5, 40, 12), bins=4):
    rng = np.random.default_rng(3)
    total = sum(lengths)
    noisy = rng.uniform(0, 2, (total, bins)).astype(np.float32)
    clean = rng.uniform(0, 1, (total, bins)).astype(np.float32)
    with h5py.File(path, "w") as f:
        f.create_dataset("noisy", data=noisy, maxshape=(None, bins), chunks=(16, bins))
        f.create_dataset("clean", data=clean, maxshape=(None, bins), chunks=(16, bins))
        index = f.create_group("index")
        index["clip_id"] = np.array([f"c{i}" for i in range(len(lengths))], dtype=h5py.string_dtype())
        index["split"] = np.array(["train", "train", "test"], dtype=h5py.string_dtype())
        index["offset"] = np.cumsum([0] + list(lengths[:-1])).astype(np.int64)
        index["num_frames"] = np.array(lengths, dtype=np.int64)
        index["snr_db"] = np.array([0.0, np.nan, 5.0])
        train = noisy[: lengths[0] + lengths[1]]
        f["stats/noisy/mean"] = train.astype(np.float64).mean(axis=0)
        f["stats/noisy/std"] = train.astype(np.float64).std(axis=0)
        f.attrs["n_fft"] = 6
    return noisy, clean


class DatasetTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.folder.name, "f.h5")
        self.noisy, self.clean = write_sample(self.path)

    def tearDown(self):
        self.folder.cleanup()

    def test_whole_clips_and_index(self):
        data = SEKitFeatureDataset(self.path, normalize=False)
        self.assertEqual(len(data), 3)
        noisy, clean, clip_id = data[1]
        self.assertEqual(clip_id, "c1")
        np.testing.assert_array_equal(noisy, self.noisy[5:45])
        np.testing.assert_array_equal(clean, self.clean[5:45])
        self.assertEqual(read_index(self.path)["split"].tolist(), ["train", "train", "test"])
        self.assertEqual(data.attrs["n_fft"], 6)

    def test_split_filter_and_normalisation(self):
        data = SEKitFeatureDataset(self.path, split="train")
        self.assertEqual(len(data), 2)
        both = np.concatenate([data[0][0], data[1][0]])
        np.testing.assert_allclose(both.mean(axis=0), 0, atol=1e-5)
        np.testing.assert_allclose(both.std(axis=0), 1, atol=1e-5)

    def test_segments_are_seeded_and_padded(self):
        data = SEKitFeatureDataset(self.path, segment_frames=8, normalize=False, seed=11)
        first = data[1][0]
        self.assertEqual(first.shape, (8, 4))
        np.testing.assert_array_equal(first, SEKitFeatureDataset(self.path, segment_frames=8, normalize=False, seed=11)[1][0])
        start = data.segment(1)[0]
        np.testing.assert_array_equal(first, self.noisy[start:start + 8])
        starts = set()
        for epoch in range(20):
            data.set_epoch(epoch)
            starts.add(data.segment(1)[0])
        self.assertGreater(len(starts), 5)
        short, target, _ = data[0]  # 5 frames, padded to 8
        np.testing.assert_array_equal(short[:5], self.noisy[:5])
        np.testing.assert_array_equal(short[5:], 0)
        self.assertEqual(target.shape, (8, 4))

    def test_lazy_handle_survives_pickling(self):
        data = SEKitFeatureDataset(self.path, normalize=False)
        self.assertIsNone(data._file)
        data[0]
        self.assertIsNotNone(data._file)
        copy = pickle.loads(pickle.dumps(data))
        self.assertIsNone(copy._file)
        np.testing.assert_array_equal(copy[2][0], data[2][0])
        data.close()

    def test_missing_stream_is_named(self):
        with self.assertRaisesRegex(KeyError, "irm"):
            SEKitFeatureDataset(self.path, target="irm")


def write_shard(path, clip_ids, lengths, bins=4, seed=0):
    """A shard file (noisy and clean streams, index) of the given clips; returns its noisy rows."""
    rng = np.random.default_rng(seed)
    total = sum(lengths)
    noisy = rng.uniform(0.5, 2, (total, bins)).astype(np.float32)
    with h5py.File(path, "w") as f:
        f["noisy"] = noisy
        f["clean"] = noisy / 2
        f["index/clip_id"] = np.array(clip_ids, dtype=h5py.string_dtype())
        f["index/offset"] = np.cumsum([0] + list(lengths[:-1])).astype(np.int64)
        f["index/num_frames"] = np.array(lengths, dtype=np.int64)
        f["index/split"] = np.array(["train"] * len(clip_ids), dtype=h5py.string_dtype())
    return noisy


def write_merged(path, shards, bins=4):
    """A merged file as `sekit features merge` writes it: virtual datasets over `shards`
    ((relative file name, clip ids, lengths)), the joined index with offsets into the joined rows."""
    folder = os.path.dirname(path)
    totals = [sum(lengths) for _, _, lengths in shards]
    with h5py.File(path, "w") as f:
        for stream in ["noisy", "clean"]:
            layout = h5py.VirtualLayout(shape=(sum(totals), bins), dtype=np.float32)
            first = 0
            for (name, _, _), rows in zip(shards, totals):
                layout[first:first + rows] = h5py.VirtualSource(os.path.join(folder, name), stream, shape=(rows, bins))
                first += rows
            f.create_virtual_dataset(stream, layout)
        lengths = [n for _, _, shard_lengths in shards for n in shard_lengths]
        f["index/clip_id"] = np.array([c for _, ids, _ in shards for c in ids], dtype=h5py.string_dtype())
        f["index/offset"] = np.cumsum([0] + lengths[:-1]).astype(np.int64)
        f["index/num_frames"] = np.array(lengths, dtype=np.int64)
        f["index/split"] = np.array(["train"] * len(lengths), dtype=h5py.string_dtype())


class MergedFileTests(unittest.TestCase):
    """A merged file (virtual datasets) reads through its shards; a missing or replaced shard is
    named instead of read as zeros."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.first = write_shard(os.path.join(self.folder.name, "s1.h5"), ["a", "b"], [5, 7], seed=1)
        self.second = write_shard(os.path.join(self.folder.name, "s2.h5"), ["c", "d"], [6, 6], seed=2)
        self.path = os.path.join(self.folder.name, "merged.h5")
        write_merged(self.path, [("s1.h5", ["a", "b"], [5, 7]), ("s2.h5", ["c", "d"], [6, 6])])

    def tearDown(self):
        self.folder.cleanup()

    def test_a_sound_merge_reads_its_shards(self):
        self.assertEqual(check_shards(self.path), 4)
        data = SEKitFeatureDataset(self.path, normalize=False)
        np.testing.assert_array_equal(data[2][0], self.second[:6])
        self.assertEqual(data[3][2], "d")

    def test_a_missing_shard_is_named_not_read_as_zeros(self):
        os.rename(os.path.join(self.folder.name, "s2.h5"), os.path.join(self.folder.name, "aside.h5"))
        with h5py.File(self.path, "r") as f:  # the hazard: h5py reads the missing rows as zeros
            self.assertTrue(np.all(f["noisy"][12:24] == 0))
        shard = os.path.join(self.folder.name, "s2.h5")
        for attempt in (lambda: check_shards(self.path), lambda: SEKitFeatureDataset(self.path, normalize=False)):
            with self.assertRaises(MissingShardError) as caught:
                attempt()
            message = str(caught.exception)
            self.assertIn(f"stream 'noisy' rows 12..<24: shard {shard}: the shard file is missing", message)
            self.assertIn("stream 'clean' rows 12..<24", message)

    def test_another_shard_under_its_name_is_named(self):
        write_shard(os.path.join(self.folder.name, "s2.h5"), ["a", "b"], [6, 6], seed=3)
        with self.assertRaisesRegex(MissingShardError, "its clips are not the 2 the merged file lists"):
            SEKitFeatureDataset(self.path, normalize=False)
        write_shard(os.path.join(self.folder.name, "s2.h5"), ["c", "d"], [6, 5], seed=3)
        with self.assertRaisesRegex(MissingShardError, "is 11 x 4, not the 12 x 4 the merged file maps"):
            SEKitFeatureDataset(self.path, normalize=False)


if __name__ == "__main__":
    unittest.main()
