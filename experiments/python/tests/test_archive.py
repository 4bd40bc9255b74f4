"""sekit.data.SEKitArchiveDataset: training segments streamed from tar and Shar shards (issue 31)."""

import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import unittest

import numpy as np

from sekit.archive import read_wav
from sekit.data import ArchiveError, SEKitArchiveDataset
from tests import support
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
        for archive, name in (("tar", "shard-000001.tar"), ("shar", "shar/recording.000001.tar")):
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

    def copy(self, archive, name):
        corpus = os.path.join(self.folder, f"{archive}-{name}")
        shutil.copytree(os.path.join(self.folder, archive), corpus)
        return corpus

    def test_a_member_written_twice_is_refused_by_both_readers(self):
        """Issue 40 item 7: the CLI read the last copy, SEKitArchiveDataset the first."""
        for archive, name in (("tar", "shard-000000.tar"), ("shar", "shar/recording.000000.tar")):
            corpus = self.copy(archive, "twice")
            path = os.path.join(corpus, name)
            with tarfile.open(path) as tar:
                first = tar.getmembers()[0]
                data = tar.extractfile(first).read()
            with tarfile.open(path, "a") as tar:
                tar.addfile(first, io.BytesIO(data))
            with self.assertRaises(ArchiveError) as raised:
                list(SEKitArchiveDataset(corpus))
            self.assertIn("appears twice", str(raised.exception))
            self.assertIn(name, str(raised.exception))
            done = subprocess.run([support.sekit_binary(), "score", "--corpus", corpus, "--metrics", "snr", "--format", "json",
                                   "--no-catalog"], capture_output=True, text=True)
            self.assertNotEqual(done.returncode, 0, done.stdout)
            self.assertIn("appears twice", done.stdout + done.stderr)

    def test_a_shard_copied_from_another_position_is_refused(self):
        """Issue 40 item 7: the dataset yielded shard 0's clips twice and dropped shard 1's, without error."""
        for archive, names in (("tar", ["shard-{:06d}.tar"]),
                               ("shar", ["shar/recording.{:06d}.tar", "shar/clean.{:06d}.tar", "shar/noise.{:06d}.tar",
                                         "shar/cuts.{:06d}.jsonl.gz"])):
            corpus = self.copy(archive, "moved")
            for name in names:
                shutil.copyfile(os.path.join(corpus, name.format(0)), os.path.join(corpus, name.format(1)))
            with self.assertRaises(ArchiveError) as raised:
                list(SEKitArchiveDataset(corpus))
            self.assertIn("belongs in shard 0, not 1", str(raised.exception))

    def test_a_shar_corpus_mixed_before_the_shar_folder_is_read_as_it_is(self):
        """Issue 40 item 12: Shar shards moved to OUT/shar/; a corpus with its shards in OUT (archive.json
        without "folder") is still read, by this reader and by sekit."""
        corpus = self.copy("shar", "old-layout")
        for name in os.listdir(os.path.join(corpus, "shar")):
            os.replace(os.path.join(corpus, "shar", name), os.path.join(corpus, name))
        os.rmdir(os.path.join(corpus, "shar"))
        with open(os.path.join(corpus, "archive.json")) as f:
            layout = json.load(f)
        self.assertEqual(layout.pop("folder"), "shar")
        with open(os.path.join(corpus, "archive.json"), "w") as f:
            json.dump(layout, f)
        items = list(SEKitArchiveDataset(corpus, target="noise"))
        self.assertEqual(len(items), 9)
        for noisy, noise, clip_id in items:
            np.testing.assert_array_equal(noisy, self.stem("noisy", clip_id))
        done = subprocess.run([support.sekit_binary(), "score", "--corpus", corpus, "--metrics", "snr", "--no-catalog"],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)


if __name__ == "__main__":
    unittest.main()
