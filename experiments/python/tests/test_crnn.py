"""The CRNN recipe (experiments/crnn): one epoch of train.py on the fixture corpus through the real `sekit`
binary and a real catalogue, its checkpoint and ONNX exports (metadata, onnxruntime against torch, the
streaming model against the whole one), the training run in the catalogue; and the recipe's parts
(checkpoint selection, early stopping, config checks) on their own."""

import filecmp
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

from tests import support
from tests.tracking_support import query

RECIPE = os.path.join(support.ROOT, "experiments", "crnn")
TRAIN = os.path.join(RECIPE, "train.py")
METADATA_KEYS = {"sekit_model_format", "sample_rate", "n_fft", "win_length", "hop_length", "window", "center",
                 "feature", "exponent", "output", "bins", "stats_mean", "stats_std", "train_run_id", "epoch",
                 "lookahead_frames", "streaming", "parameters"}


def require_recipe_packages():
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
        import torch  # noqa: F401
    except ImportError as error:
        support.require(False, f"needs torch, onnx and onnxruntime (scripts/python-env.sh installs them): {error}")
    if RECIPE not in sys.path:
        sys.path.insert(0, RECIPE)


def metadata(path):
    import onnx
    return {entry.key: entry.value for entry in onnx.load(path).metadata_props}


class TrainOneEpochTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_recipe_packages()
        cls.features = support.features("crnn-irm", "--targets", "irm", catalog=True)
        cls.catalog = os.path.join(support.work_folder(), "catalog.sqlite")
        cls.folder = tempfile.mkdtemp(prefix="sekit-crnn-", dir=support.work_folder())
        cls.out = os.path.join(cls.folder, "run")
        config = os.path.join(cls.folder, "config.json")
        with open(config, "w") as f:
            json.dump({"name": "crnn-test", "valid_clips": 2}, f)
        environment = dict(os.environ, SEKIT_BINARY=support.sekit_binary(),
                           PYTHONPATH=support.PACKAGE_FOLDER + os.pathsep + os.environ.get("PYTHONPATH", ""))
        done = subprocess.run([sys.executable, TRAIN, "--features", cls.features, "--out", cls.out, "--epochs", "1",
                               "--catalog", cls.catalog, "--device", "cpu", "--config", config],
                              capture_output=True, text=True, env=environment)
        if done.returncode != 0:
            raise AssertionError(f"train.py failed ({done.returncode}): {done.stderr[-3000:]}")
        cls.run_id = done.stdout.strip()
        cls.stderr = done.stderr

    def test_writes_the_checkpoint_its_exports_and_the_best(self):
        for name in ("epoch-1.pt", "epoch-1.onnx", "epoch-1.stream.onnx", "best.pt", "best.onnx",
                     "best.stream.onnx", "best.json"):
            self.assertTrue(os.path.isfile(os.path.join(self.out, name)), name)
        self.assertFalse(any(name.endswith(".tmp") for name in os.listdir(self.out)))
        with open(os.path.join(self.out, "best.json")) as f:
            self.assertEqual(json.load(f)["epoch"], 1)
        for suffix in (".pt", ".onnx", ".stream.onnx"):
            self.assertTrue(filecmp.cmp(os.path.join(self.out, "best" + suffix),
                                        os.path.join(self.out, "epoch-1" + suffix), shallow=False), suffix)

    def test_the_metadata_follows_the_contract(self):
        whole = metadata(os.path.join(self.out, "epoch-1.onnx"))
        stream = metadata(os.path.join(self.out, "epoch-1.stream.onnx"))
        self.assertEqual(set(whole), METADATA_KEYS)
        self.assertEqual(set(stream), METADATA_KEYS | {"state_shape"})
        with h5py.File(self.features, "r") as f:
            attrs = dict(f.attrs)
            mean, std = f["stats/noisy/mean"][()], f["stats/noisy/std"][()]
            bins = f["noisy"].shape[1]
        for key in ("sample_rate", "n_fft", "win_length", "hop_length"):
            self.assertEqual(int(whole[key]), int(attrs[key]), key)
        self.assertEqual(whole["window"], attrs["window"])
        self.assertEqual(whole["feature"], attrs["feature"])
        self.assertAlmostEqual(float(whole["exponent"]), float(attrs["exponent"]))
        self.assertEqual(whole["center"], "1" if int(attrs["center"]) else "0")
        self.assertEqual((whole["sekit_model_format"], whole["output"], whole["epoch"], whole["lookahead_frames"]),
                         ("1", "mask", "1", "0"))
        self.assertEqual((whole["streaming"], stream["streaming"]), ("0", "1"))
        self.assertEqual(int(whole["bins"]), bins)
        self.assertEqual(whole["train_run_id"], self.run_id)
        np.testing.assert_allclose(json.loads(whole["stats_mean"]), mean, rtol=1e-6)
        np.testing.assert_allclose(json.loads(whole["stats_std"]), np.where(std < 1e-8, 1, std), rtol=1e-6)
        self.assertEqual(json.loads(stream["state_shape"]), [2, 1, 256])
        self.assertTrue(500_000 <= int(whole["parameters"]) <= 2_000_000, whole["parameters"])

    def valid_input(self):
        """A valid clip's normalised noisy features, as the contract defines them, [1, frames, bins]."""
        from sekit.data import SEKitFeatureDataset
        valid = SEKitFeatureDataset(self.features, target=None, split="valid")
        noisy, _, _ = valid[0]
        return noisy[None]

    def test_onnxruntime_gives_the_checkpoints_mask(self):
        import onnxruntime
        import torch
        from model import CRNN
        checkpoint = torch.load(os.path.join(self.out, "epoch-1.pt"), weights_only=False)
        model = CRNN(checkpoint["bins"], **checkpoint["config"]["model"]).eval()
        model.load_state_dict(checkpoint["model"])
        noisy = self.valid_input()
        session = onnxruntime.InferenceSession(os.path.join(self.out, "epoch-1.onnx"))
        self.assertEqual([i.name for i in session.get_inputs()], ["noisy"])
        self.assertEqual([o.name for o in session.get_outputs()], ["mask"])
        mask = session.run(None, {"noisy": noisy})[0]
        with torch.no_grad():
            expected = model(torch.from_numpy(noisy)).numpy()
        self.assertEqual(mask.shape, noisy.shape)
        np.testing.assert_allclose(mask, expected, atol=1e-5)
        self.assertTrue(0 <= mask.min() and mask.max() <= 1)

    def test_the_streaming_model_gives_the_whole_models_frames(self):
        import onnxruntime
        noisy = self.valid_input()
        whole = onnxruntime.InferenceSession(os.path.join(self.out, "epoch-1.onnx")).run(None, {"noisy": noisy})[0]
        stream = onnxruntime.InferenceSession(os.path.join(self.out, "epoch-1.stream.onnx"))
        self.assertEqual([i.name for i in stream.get_inputs()], ["noisy", "state_in"])
        self.assertEqual([o.name for o in stream.get_outputs()], ["mask", "state_out"])
        state_shape = json.loads(metadata(os.path.join(self.out, "epoch-1.stream.onnx"))["state_shape"])
        state, frames = np.zeros(state_shape, dtype=np.float32), []
        for t in range(noisy.shape[1]):
            mask, state = stream.run(None, {"noisy": noisy[:, t:t + 1], "state_in": state})
            self.assertEqual(mask.shape, (1, 1, noisy.shape[2]))
            frames.append(mask)
        difference = np.abs(np.concatenate(frames, axis=1) - whole).max()
        self.assertLessEqual(difference, 1e-5 * np.abs(whole).max())

    def test_the_run_is_in_the_catalogue(self):
        with h5py.File(self.features, "r") as f:
            features_run = f.attrs["features_run_id"]
        kind, name, status, parent = query(self.catalog, "SELECT kind, name, status, parent_id FROM runs WHERE id = ?",
                                           [self.run_id])[0]
        self.assertEqual((kind, name, status, parent), ("train", "crnn-test", "finished", features_run))
        steps = query(self.catalog, "SELECT key, step FROM run_step_metrics WHERE run_id = ? ORDER BY key",
                      [self.run_id])
        keys = {key for key, step in steps}
        self.assertTrue({"train_loss", "valid_loss", "valid_stoi", "valid_pesq"} <= keys, keys)
        self.assertEqual({step for _, step in steps}, {1})
        artifacts = query(self.catalog, "SELECT path FROM artifacts WHERE run_id = ?", [self.run_id])
        self.assertEqual(sorted(os.path.basename(path) for path, in artifacts),
                         ["epoch-1.onnx", "epoch-1.pt", "epoch-1.stream.onnx"])
        params = dict(query(self.catalog, "SELECT key, value_text FROM params WHERE run_id = ?", [self.run_id]))
        self.assertEqual(params["select_key"], "valid_loss")

    def test_the_export_enhances_streams_and_scores_under_its_training_run(self):
        # The recipe's own export through `sekit enhance --model --streaming`, then scored: the
        # catalogue's chain is score <- enhance <- train <- features (the corpus was mixed elsewhere).
        out = os.path.join(self.folder, "enhanced")
        support.sekit("enhance", "--model", os.path.join(self.out, "epoch-1.onnx"), "--streaming",
                      "--corpus", support.corpus(), "--split", "test", "--out", out, catalog=self.catalog)
        enhanced = os.path.join(out, "epoch-1")
        self.assertEqual(len([n for n in os.listdir(enhanced) if n.endswith(".wav")]), 6)
        support.sekit("score", "--corpus", support.corpus(), "--split", "test", "--enhanced", enhanced,
                      "--metrics", "stoi", "--checkpoint", "crnn-epoch-1", catalog=self.catalog)
        (score,) = query(self.catalog, "SELECT r.id FROM runs r JOIN params p ON p.run_id = r.id "
                                       "WHERE r.kind = 'score' AND p.key = 'enhanced' AND p.value_text = ?", [enhanced])
        chain, run = [], score[0]
        while run:
            kind, run = query(self.catalog, "SELECT kind, parent_id FROM runs WHERE id = ?", [run])[0]
            chain.append(kind)
        self.assertEqual(chain[:4], ["score", "enhance", "train", "features"])
        (enhance,) = query(self.catalog, "SELECT id FROM runs WHERE kind = 'enhance' AND parent_id = ?", [self.run_id])
        params = dict(query(self.catalog, "SELECT key, value_text FROM params WHERE run_id = ?", [enhance[0]]))
        self.assertLessEqual(float(params["streaming_max_abs_diff"]), 1e-5)
        self.assertLess(float(params["frame_ms_p99"]), float(params["hop_ms"]))
        self.assertGreater(float(params["model_parameters"]), 1e6)
        # SEKit runs the model with its Elu nodes written as Min, Exp and Max (faster in ONNX Runtime): every
        # clip equals ONNX Runtime on the exported file as it is (scripts/bench/model_reference.py).
        with open(os.path.join(self.out, "epoch-1.onnx"), "rb") as model:
            self.assertIn(b"Elu", model.read())
        noisy = os.path.join(support.corpus(), "noisy")
        for name in sorted(n for n in os.listdir(enhanced) if n.endswith(".wav")):
            printed = subprocess.run([sys.executable, os.path.join(support.ROOT, "scripts", "bench", "model_reference.py"),
                                      "--compare", os.path.join(self.out, "epoch-1.onnx"), os.path.join(noisy, name),
                                      os.path.join(enhanced, name)], check=True, capture_output=True, text=True).stdout
            result = json.loads(printed)
            self.assertLessEqual(result["max_abs_diff"], 1e-5 * result["peak"], name)


class RefusalTests(unittest.TestCase):
    def test_a_file_without_the_target_is_named_and_nothing_is_written(self):
        require_recipe_packages()
        features = support.features("crnn-clean-only")
        with tempfile.TemporaryDirectory(dir=support.work_folder()) as folder:
            out = os.path.join(folder, "run")
            done = subprocess.run([sys.executable, TRAIN, "--features", features, "--out", out, "--epochs", "1",
                                   "--device", "cpu"], capture_output=True, text=True,
                                  env=dict(os.environ, PYTHONPATH=support.PACKAGE_FOLDER))
            self.assertNotEqual(done.returncode, 0)
            self.assertIn(features, done.stderr)
            self.assertIn("no stream '/irm'", done.stderr)
            self.assertNotIn("Traceback", done.stderr)
            self.assertFalse(os.path.exists(out))


class HoldOutTests(unittest.TestCase):
    """Issue 40 item 14: features without a valid split once stopped train.py ("no validation clips")."""

    def setUp(self):
        require_recipe_packages()

    def test_speakers_are_held_out_whole_and_the_draw_is_seeded(self):
        from holdout import hold_out
        clips = [f"c{i:02d}" for i in range(30)]
        speakers = {clip: f"spk{i % 6}" for i, clip in enumerate(clips)}
        held, kept, by = hold_out(clips, 0.2, seed=0, speakers=speakers)
        self.assertEqual(by, "speaker")
        self.assertFalse({speakers[c] for c in held} & {speakers[c] for c in kept}, "a speaker on both sides")
        self.assertEqual(sorted(held + kept), clips)
        self.assertEqual(hold_out(list(reversed(clips)), 0.2, seed=0, speakers=speakers)[0], held, "order matters")
        others = {tuple(hold_out(clips, 0.2, seed=seed, speakers=speakers)[0]) for seed in range(6)}
        self.assertGreater(len(others), 1, "the seed changes nothing")
        held, kept, by = hold_out(clips, 0.1, seed=3)
        self.assertEqual((by, len(held), len(kept)), ("clip", 3, 27))
        with self.assertRaises(ValueError):
            hold_out(["only"], 0.1, seed=0)

    def test_training_without_a_valid_split_holds_out_and_records_it(self):
        features = support.features("crnn-train-only", "--split", "train", "--targets", "irm")
        with tempfile.TemporaryDirectory(dir=support.work_folder()) as folder:
            out, config, catalog = (os.path.join(folder, name) for name in ("run", "config.json", "catalog.sqlite"))
            with open(config, "w") as f:
                json.dump({"name": "crnn-holdout", "valid_metrics": [], "holdout_fraction": 0.25}, f)
            done = subprocess.run([sys.executable, TRAIN, "--features", features, "--out", out, "--epochs", "1",
                                   "--device", "cpu", "--config", config, "--catalog", catalog], capture_output=True, text=True,
                                  env=dict(os.environ, SEKIT_BINARY=support.sekit_binary(), PYTHONPATH=support.PACKAGE_FOLDER))
            self.assertEqual(done.returncode, 0, done.stderr[-3000:])
            self.assertIn("has no valid split: holding out 3 of its 12 training clips", done.stderr)
            with open(os.path.join(out, "holdout.json")) as f:
                holdout = json.load(f)
            self.assertEqual(len(holdout["clip_ids"]), 3)
            params = dict(sqlite3.connect(catalog).execute(
                "SELECT key, value_text FROM params WHERE run_id = ? AND (key LIKE 'holdout%' OR key = 'validation')",
                (done.stdout.strip(),)).fetchall())
            self.assertEqual(params.get("validation"), "holdout")
            self.assertEqual(params.get("holdout_clips"), "3")


class SelectionTests(unittest.TestCase):
    def setUp(self):
        require_recipe_packages()

    def test_the_best_is_the_lowest_and_patience_stops(self):
        from selection import Selection
        selection = Selection("valid_loss", "min", patience=2)
        improved = [selection.update(epoch, {"valid_loss": value})
                    for epoch, value in enumerate([0.5, 0.4, 0.45, 0.41], start=1)]
        self.assertEqual(improved, [True, True, False, False])
        self.assertEqual((selection.best_epoch, selection.best_value), (2, 0.4))
        self.assertTrue(selection.should_stop)

    def test_max_mode_min_delta_and_nan(self):
        from selection import Selection
        selection = Selection("valid_stoi", "max", patience=3, min_delta=0.01)
        improved = [selection.update(epoch, {"valid_stoi": value})
                    for epoch, value in enumerate([0.80, 0.805, float("nan"), 0.82], start=1)]
        self.assertEqual(improved, [True, False, False, True])
        self.assertEqual(selection.best_epoch, 4)
        self.assertFalse(selection.should_stop)

    def test_no_patience_never_stops_and_a_missing_key_is_named(self):
        from selection import Selection
        selection = Selection("valid_loss", "min", patience=0)
        for epoch in range(1, 10):
            selection.update(epoch, {"valid_loss": 1.0})
        self.assertFalse(selection.should_stop)
        with self.assertRaisesRegex(KeyError, "valid_pesq"):
            Selection("valid_pesq").update(1, {"valid_loss": 1.0})
        with self.assertRaisesRegex(ValueError, "mode"):
            Selection("valid_loss", "lowest")


class ConfigTests(unittest.TestCase):
    def setUp(self):
        require_recipe_packages()

    def test_unknown_keys_are_refused_naming_the_file(self):
        from config import load_config
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"lr": 0.01, "model": {"gru_hiden": 64}}, f)
        self.addCleanup(os.remove, f.name)
        with self.assertRaises(SystemExit) as raised:
            load_config(f.name)
        self.assertIn(f.name, str(raised.exception))
        self.assertIn("model.gru_hiden", str(raised.exception))

    def test_overrides_keep_the_other_defaults(self):
        from config import load_config
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"lr": 0.01, "model": {"gru_hidden": 64}}, f)
        self.addCleanup(os.remove, f.name)
        config = load_config(f.name)
        self.assertEqual((config["lr"], config["model"]["gru_hidden"], config["model"]["gru_layers"]), (0.01, 64, 2))

    def test_the_dns_framing_refuses_other_features(self):
        from config import check_framing, load_config
        config = load_config(os.path.join(RECIPE, "config-dns.json"))
        check_framing(config, {"sample_rate": 16000, "win_length": 320, "hop_length": 160}, "dns.h5")
        with self.assertRaisesRegex(SystemExit, r"other\.h5: framing 'dns'.*win_length 512"):
            check_framing(config, {"sample_rate": 16000, "win_length": 512, "hop_length": 256}, "other.h5")


if __name__ == "__main__":
    unittest.main()
