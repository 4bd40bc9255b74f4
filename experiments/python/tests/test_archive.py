"""sekit.data.SEKitArchiveDataset: training segments streamed from tar and Shar shards (issue 31)."""

import os
import tempfile
import unittest

import numpy as np

from sekit.archive import read_wav
from sekit.data import ArchiveError, SEKitArchiveDataset
from tests.support import sekit


class ArchiveDatasetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="sekit-archive-")
        for kind, color, level in (("speech", "pink", "-20"), ("noise", "white", "-30")):
            os.makedirs(os.path.join(cls.folder, kind))
            for seed in ("3", "4"):
                sekit("noise", os.path.join(cls.folder, kind, seed + ".wav"), "--color", color, "--seconds", "2",
                      "--rms-dbfs", level, "--seed", seed, records=False)
        common = ["mix", "--speech", os.path.join(cls.folder, "speech"), "--noise", os.path.join(cls.folder, "noise"),
                  "--count", "9", "--seconds", "0.5", "--split", "train=0.5,test=0.5", "--seed", "2"]
        sekit(*common, "--out", os.path.join(cls.folder, "loose"))
        for archive in ("tar", "shar"):
            sekit(*common, "--archive", archive, "--archive-clips", "4", "--out", os.path.join(cls.folder, archive))

    def stem(self, name, clip_id):
        with open(os.path.join(self.folder, "loose", name, clip_id + ".wav"), "rb") as f:
            return read_wav(f.read())

    def test_every_clip_equals_the_folder_corpus(self):
        for archive in ("tar", "shar"):
            items = list(SEKitArchiveDataset(os.path.join(self.folder, archive), target="noise"))
            self.assertEqual(len(items), 9, archive)
            for noisy, noise, clip_id in items:
                np.testing.assert_array_equal(noisy, self.stem("noisy", clip_id))
                np.testing.assert_array_equal(noise, self.stem("noise", clip_id))

    def test_segments_split_and_shuffle_are_seeded(self):
        for archive in ("tar", "shar"):
            corpus = os.path.join(self.folder, archive)
            data = SEKitArchiveDataset(corpus, split="test", segment_samples=3000, shuffle_buffer=3, seed=5)
            first = [(clip_id, noisy.copy()) for noisy, _, clip_id in data]
            again = [(clip_id, noisy.copy()) for noisy, _, clip_id in data]
            self.assertEqual([c for c, _ in first], [c for c, _ in again])
            self.assertTrue(all(np.array_equal(a, b) for (_, a), (_, b) in zip(first, again)))
            self.assertTrue(all(len(noisy) == 3000 for _, noisy in first))
            with open(os.path.join(self.folder, "loose", "manifest.jsonl")) as f:
                test = sorted(line.split('"clip_id":"')[1].split('"')[0] for line in f if '"split":"test"' in line)
            self.assertEqual(sorted(c for c, _ in first), test)
            data.set_epoch(1)
            self.assertEqual(sorted(c for _, _, c in data), test)

    def test_a_truncated_or_missing_shard_is_named(self):
        for archive, name in (("tar", "shard-000001.tar"), ("shar", "recording.000001.tar")):
            corpus = os.path.join(self.folder, archive + "-broken")
            os.system(f"cp -r {os.path.join(self.folder, archive)} {corpus}")
            with open(os.path.join(corpus, name), "r+b") as f:
                f.truncate(9000)
            with self.assertRaises(ArchiveError) as raised:
                list(SEKitArchiveDataset(corpus))
            self.assertIn(name, str(raised.exception))
            os.remove(os.path.join(corpus, name))
            with self.assertRaises(ArchiveError) as raised:
                list(SEKitArchiveDataset(corpus))
            self.assertIn("missing", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
