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
from sekit_dataset import SEKitFeatureDataset, read_index  # noqa: E402


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


if __name__ == "__main__":
    unittest.main()
