"""sekit.predictions.write_predictions against feature files written by the real `sekit` binary:
the format, the clips' order, the run ids, atomic replacement, every refusal, and `sekit
synthesize` reading a predictions file of every clip."""

import glob
import os
import shutil
import tempfile
import unittest

import h5py
import numpy as np

from sekit.data import SEKitFeatureDataset
from sekit.predictions import PredictionsError, write_predictions
from tests import support

try:
    import torch
except ImportError:
    torch = None


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class WritePredictionsTests(unittest.TestCase):
    def setUp(self):
        self.like = support.features("recorded", "--targets", "irm,noisy_phase", catalog=True)
        self.data = SEKitFeatureDataset(self.like, target="irm", normalize=False)
        self.folder = tempfile.mkdtemp(prefix="sekit-predictions-")
        self.path = os.path.join(self.folder, "pred.h5")
        self.rng = np.random.default_rng(1)
        os.environ.pop("SEKIT_RUN_ID", None)

    def tearDown(self):
        shutil.rmtree(self.folder)
        os.environ.pop("SEKIT_RUN_ID", None)

    def masks(self, items):
        return {str(self.data.clip_ids[i]): self.rng.uniform(0, 1, (int(self.data.num_frames[i]), self.data.bins))
                for i in items}

    def test_a_subset_is_packed_in_the_feature_files_order(self):
        chosen = [17, 2, 9, 3]
        predictions = self.masks(chosen)
        self.assertEqual(write_predictions(self.path, predictions, like=self.like, stream="mask", run_id="run-7"), self.path)
        with h5py.File(self.path, "r") as f:
            ids = list(f["index/clip_id"].asstr()[()])
            self.assertEqual(ids, [str(self.data.clip_ids[i]) for i in sorted(chosen)])
            offsets, frames = f["index/offset"][()], f["index/num_frames"][()]
            self.assertEqual((offsets.dtype, frames.dtype), (np.int64, np.int64))
            self.assertEqual(list(frames), [int(self.data.num_frames[i]) for i in sorted(chosen)])
            self.assertEqual(list(offsets), [0] + list(np.cumsum(frames)[:-1]))
            mask = f["mask"]
            self.assertEqual((mask.dtype, mask.shape), (np.dtype("<f4"), (int(frames.sum()), self.data.bins)))
            for clip_id, offset, count in zip(ids, offsets, frames):
                np.testing.assert_array_equal(mask[offset:offset + count], predictions[clip_id].astype(np.float32))
            string_type = h5py.check_string_dtype(f["index/clip_id"].dtype)
            self.assertEqual((string_type.encoding, string_type.length), ("utf-8", None))
            attrs = dict(f.attrs)
            with h5py.File(self.like, "r") as like:
                features_run_id = like.attrs["features_run_id"]
        self.assertNotEqual(features_run_id, "")  # recorded in a catalogue
        self.assertEqual(attrs, {"format_version": 1, "content": "sekit-predictions", "stream": "mask", "run_id": "run-7",
                                 "features_run_id": features_run_id, "like": self.like})
        self.assertIsInstance(attrs["format_version"], np.int64)
        for key in ("content", "stream", "run_id", "features_run_id", "like"):
            self.assertIsInstance(attrs[key], str, key)

    def test_the_run_id_comes_from_the_environment_else_is_empty(self):
        write_predictions(self.path, self.masks([0]), like=self.like)
        with h5py.File(self.path, "r") as f:
            self.assertEqual((f.attrs["run_id"], f.attrs["stream"]), ("", "mask"))
        os.environ["SEKIT_RUN_ID"] = "train-42"
        write_predictions(self.path, self.masks([0]), like=self.like, stream="magnitude")
        with h5py.File(self.path, "r") as f:
            self.assertEqual((f.attrs["run_id"], f.attrs["stream"]), ("train-42", "magnitude"))
            self.assertIn("magnitude", f)
        write_predictions(self.path, self.masks([0]), like=self.like, run_id="given")
        with h5py.File(self.path, "r") as f:
            self.assertEqual(f.attrs["run_id"], "given")

    def test_same_inputs_give_the_same_bytes_and_nothing_else_is_left(self):
        predictions = self.masks([1, 5, 6])
        write_predictions(self.path, predictions, like=self.like, run_id="r")
        first = read_bytes(self.path)
        write_predictions(self.path, predictions, like=self.like, run_id="r")
        self.assertEqual(read_bytes(self.path), first)
        self.assertEqual(os.listdir(self.folder), ["pred.h5"])

    def test_refusals_name_the_clip_and_the_numbers_and_write_nothing(self):
        write_predictions(self.path, self.masks([0]), like=self.like, run_id="kept")
        before = read_bytes(self.path)
        clip, frames, bins = str(self.data.clip_ids[4]), int(self.data.num_frames[4]), self.data.bins
        nan = np.zeros((frames, bins))
        nan[3, 7] = np.nan
        cases = [
            ({"no-such-clip": np.zeros((5, bins))}, f"clip 'no-such-clip' is not in {self.like} (24 clips)"),
            ({clip: np.zeros((frames - 1, bins))}, f"clip '{clip}': {frames - 1} frames, the clip has {frames} in {self.like}"),
            ({clip: np.zeros((frames, bins + 1))}, f"clip '{clip}': {bins + 1} bins, {self.like} has {bins}"),
            ({clip: np.zeros(frames)}, f"clip '{clip}': a 1-D array of shape ({frames},), not 2-D"),
            ({clip: np.zeros((1, frames, bins))}, f"clip '{clip}': a 3-D array"),
            ({clip: nan}, f"clip '{clip}': 1 non-finite values as float32, the first at frame 3, bin 7 (nan)"),
            ({clip: np.full((frames, bins), 1e39)}, f"{frames * bins} non-finite values as float32, the first at frame 0, bin 0 (1e+39 overflows float32)"),
            ({clip: np.zeros((frames, bins), dtype=np.complex64)}, f"clip '{clip}': values of type complex64, not real numbers"),
            ({7: np.zeros((frames, bins))}, "clip id 7 is a int, not a str"),
            ({}, "no predictions (an empty dict): nothing to write"),
        ]
        for predictions, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(PredictionsError) as caught:
                    write_predictions(self.path, predictions, like=self.like)
                self.assertIn(message, str(caught.exception))
                self.assertIn(self.path, str(caught.exception))
        both = {**self.masks([1]), "x": np.zeros((2, bins)), "y": np.zeros((2, bins))}
        with self.assertRaisesRegex(PredictionsError, "2 of 3 predictions refused, nothing written: clip 'x'.*clip 'y'"):
            write_predictions(self.path, both, like=self.like)
        self.assertEqual(read_bytes(self.path), before)
        self.assertEqual(os.listdir(self.folder), ["pred.h5"])

    def test_a_missing_folder_or_a_bad_stream_name_is_named(self):
        missing = os.path.join(self.folder, "no", "pred.h5")
        with self.assertRaisesRegex(PredictionsError, f"the folder {os.path.dirname(missing)} does not exist"):
            write_predictions(missing, self.masks([0]), like=self.like)
        with self.assertRaisesRegex(PredictionsError, "stream 'index' cannot name a dataset"):
            write_predictions(self.path, self.masks([0]), like=self.like, stream="index")

    @unittest.skipIf(torch is None, "torch is optional (scripts/requirements-torch.txt)")
    def test_torch_tensors_are_accepted(self):
        values = self.masks([2, 8])
        tensors = {k: torch.tensor(v, dtype=torch.float32, requires_grad=True) * 1 for k, v in values.items()}
        tensors[next(iter(values))] = tensors[next(iter(values))].to(torch.bfloat16)
        write_predictions(self.path, tensors, like=self.like)
        with h5py.File(self.path, "r") as f:
            for clip_id, offset, count in zip(f["index/clip_id"].asstr()[()], f["index/offset"], f["index/num_frames"]):
                want = tensors[clip_id].detach().float().numpy()
                np.testing.assert_array_equal(f["mask"][offset:offset + count], want)

    def synthesize(self, predictions, name):
        """The clip ids `sekit synthesize` writes from `predictions` written by write_predictions."""
        write_predictions(self.path, predictions, like=self.like)
        out = os.path.join(self.folder, name)
        support.sekit("synthesize", "--features", self.like, "--predictions", self.path, "--dataset", "mask",
                      "--kind", "mask", "--out", out)
        return sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(out, "*.wav")))

    def test_synthesize_reads_predictions_of_every_clip(self):
        oracle = {str(c): irm for _, irm, c in (self.data[i] for i in range(len(self.data)))}
        self.assertEqual(self.synthesize(oracle, "every"), sorted(oracle))

    def test_synthesize_reads_predictions_of_some_clips(self):
        chosen = {str(c): irm for _, irm, c in (self.data[i] for i in (20, 3, 11))}
        self.assertEqual(self.synthesize(chosen, "some"), sorted(chosen))


if __name__ == "__main__":
    unittest.main()
