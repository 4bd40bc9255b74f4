"""sekit.data on feature files written by the real `sekit` binary: the batched read path returns
exactly the per-item values (uncompressed, gzip, float16, merged files), the batch sampler's draws,
statistics from another file and the split warning, and torch's DataLoader with workers."""

import os
import pickle
import unittest
import warnings

import h5py
import numpy as np

from sekit.data import (SEKitFeatureDataset, SegmentBatchSampler, StatisticsMismatchError,
                        StatisticsSplitWarning, collate_batch)
from tests import support

try:
    import torch
except ImportError:
    torch = None


def per_item(dataset, items):
    """The values of [dataset[i] for i in items], stacked when the items are segments."""
    values = [dataset[i] for i in items]
    noisy = [v[0] for v in values]
    target = [v[1] for v in values]
    if dataset.segment_frames is not None:
        return np.stack(noisy), (None if dataset.target is None else np.stack(target)), [v[2] for v in values]
    return noisy, target, [v[2] for v in values]


class BatchedReadTests(unittest.TestCase):
    def assert_batches_match(self, dataset, sampler, epochs=(0, 1)):
        """Every batch of `sampler` read by read_batch equals the per-item reads, bit for bit."""
        checked = 0
        for epoch in epochs:
            sampler.set_epoch(epoch)
            for indices in sampler:
                noisy, target, clip_ids = dataset.read_batch(indices)
                want_noisy, want_target, want_ids = per_item(dataset, indices)
                self.assertEqual(clip_ids, want_ids)
                if dataset.segment_frames is None:
                    for got, want in zip(noisy + target, want_noisy + want_target):
                        self.assertEqual(got.dtype, np.float32)
                        np.testing.assert_array_equal(got, want)
                else:
                    self.assertEqual((noisy.dtype, target.dtype), (np.float32, np.float32))
                    np.testing.assert_array_equal(noisy, want_noisy)
                    np.testing.assert_array_equal(target, want_target)
                checked += len(indices)
        self.assertEqual(checked, len(dataset) * len(epochs))

    def test_uncompressed_segments_match_per_item_reads(self):
        path = support.features("plain", "--targets", "clean,irm")
        for normalize in (True, False):
            data = SEKitFeatureDataset(path, target="clean", segment_frames=128, normalize=normalize,
                                       normalize_target=normalize, seed=4)
            self.assertTrue(data._reader("noisy").direct)
            self.assertLess(data.num_frames.min(), 128)  # some clips are padded, some cut
            self.assertGreater(data.num_frames.max(), 128)
            for neighbours in (1, 3, 8):
                self.assert_batches_match(data, SegmentBatchSampler(data, batch_size=5, neighbours=neighbours))

    def test_whole_clips_and_a_split_match_per_item_reads(self):
        data = SEKitFeatureDataset(support.features("plain", "--targets", "clean,irm"), target="irm", split="train")
        self.assertEqual(len(data), 12)
        self.assert_batches_match(data, SegmentBatchSampler(data, batch_size=4, shuffle=False))

    def test_compressed_float16_and_merged_files_match_per_item_reads(self):
        first = support.features("shard1", "--targets", "irm", "--shard", "1/2")
        second = support.features("shard2", "--targets", "irm", "--shard", "2/2")
        merged = os.path.join(support.work_folder(), "merged.h5")
        if not os.path.exists(merged):
            support.sekit("features", "merge", merged, first, second, records=False)
        files = {
            "gzip": support.features("gzip", "--targets", "irm", "--compression", "gzip:1"),
            "float16": support.features("half", "--targets", "irm", "--dtype", "float16"),
            "merged": merged,
        }
        with h5py.File(files["gzip"], "r") as f:
            self.assertEqual(f["noisy"].compression, "gzip")
        with h5py.File(merged, "r") as f:
            self.assertTrue(f["noisy"].is_virtual)
        paths = {"gzip": "chunk-aligned", "float16": "direct", "merged": "through h5py"}
        for name, path in files.items():
            with self.subTest(file=name):
                data = SEKitFeatureDataset(path, target="irm", segment_frames=100, seed=2)
                reader = data._reader("noisy")
                self.assertEqual(paths[name], "chunk-aligned" if reader.filtered else "direct" if reader.direct
                                 else "through h5py")
                self.assert_batches_match(data, SegmentBatchSampler(data, batch_size=7, neighbours=2))
                whole = SEKitFeatureDataset(path, target="irm")
                self.assert_batches_match(whole, SegmentBatchSampler(whole, batch_size=24), epochs=(0,))

    def test_values_are_the_stored_rows(self):
        path = support.features("plain", "--targets", "clean,irm")
        data = SEKitFeatureDataset(path, target="irm", segment_frames=128, normalize=False)
        items = list(range(len(data)))[::-1]
        noisy, irm, _ = data.read_batch(items)
        with h5py.File(path, "r") as f:
            for row, item in enumerate(items):
                start, frames, pad = data.segment(item)
                np.testing.assert_array_equal(noisy[row, :frames], f["noisy"][start:start + frames])
                np.testing.assert_array_equal(irm[row, :frames], f["irm"][start:start + frames])
                np.testing.assert_array_equal(noisy[row, frames:], 0)
                self.assertEqual(pad, 128 - frames if pad else 0)

    def test_a_dataset_pickles_after_batched_reads(self):
        data = SEKitFeatureDataset(support.features("plain", "--targets", "clean,irm"), segment_frames=64)
        first = data.read_batch([3, 1, 2])
        copy = pickle.loads(pickle.dumps(data))
        self.assertEqual(copy._readers, {})
        again = copy.read_batch([3, 1, 2])
        np.testing.assert_array_equal(first[0], again[0])
        np.testing.assert_array_equal(first[1], again[1])
        data.close()

    def test_items_out_of_range_are_refused(self):
        data = SEKitFeatureDataset(support.features("plain", "--targets", "clean,irm"), segment_frames=64)
        with self.assertRaises(IndexError):
            data.read_batch([0, len(data)])

    def test_an_index_past_the_stored_rows_is_an_error_naming_the_file_and_clip(self):
        """Issue 40 item 8: ds[i] returned fewer frames and read_batch padded with zeros, neither raising."""
        source = support.features("plain", "--targets", "clean,irm")
        damaged = os.path.join(support.work_folder(), "index-past-rows.h5")
        with open(source, "rb") as f, open(damaged, "wb") as g:
            g.write(f.read())
        with h5py.File(damaged, "r+") as f:
            last = len(f["index/num_frames"]) - 1
            f["index/num_frames"][last] = f["index/num_frames"][last] + 40
            clip = f["index/clip_id"].asstr()[last]
        with self.assertRaises(ValueError) as raised:
            SEKitFeatureDataset(damaged, target="irm", segment_frames=64)
        message = str(raised.exception)
        self.assertIn(damaged, message)
        self.assertIn(clip, message)
        self.assertIn("corrupt index", message)

    def test_a_split_no_clip_has_names_the_splits_there_are(self):
        """Issue 40 item 11: split="tran" gave an empty dataset without a word."""
        with self.assertRaises(ValueError) as raised:
            SEKitFeatureDataset(support.features("plain", "--targets", "clean,irm"), split="tran")
        self.assertIn("'tran'", str(raised.exception))
        self.assertIn("'train'", str(raised.exception))


class SamplerTests(unittest.TestCase):
    def setUp(self):
        self.data = SEKitFeatureDataset(support.features("plain", "--targets", "clean,irm"), segment_frames=64, seed=9)

    def test_every_item_once_per_epoch_in_batches(self):
        sampler = SegmentBatchSampler(self.data, batch_size=5)
        batches = list(sampler)
        self.assertEqual(len(sampler), 5)
        self.assertEqual([len(b) for b in batches], [5, 5, 5, 5, 4])
        self.assertEqual(sorted(i for b in batches for i in b), list(range(24)))
        dropped = SegmentBatchSampler(self.data, batch_size=5, drop_last=True)
        self.assertEqual((len(dropped), [len(b) for b in dropped]), (4, [5, 5, 5, 5]))

    def test_seeded_and_new_each_epoch(self):
        one, two = SegmentBatchSampler(self.data, batch_size=4, seed=1), SegmentBatchSampler(self.data, batch_size=4, seed=1)
        self.assertEqual(list(one), list(two))
        orders = set()
        for epoch in range(6):
            one.set_epoch(epoch)
            orders.add(tuple(one.order()))
        self.assertGreater(len(orders), 4)
        self.assertEqual(self.data.epoch, 5)  # set_epoch reaches the dataset's segment draws
        self.assertNotEqual(list(SegmentBatchSampler(self.data, batch_size=4, seed=2)), list(two))

    def test_runs_of_neighbours_in_file_order(self):
        file_order = list(np.argsort(self.data.offsets, kind="stable"))
        for epoch in range(4):
            sampler = SegmentBatchSampler(self.data, batch_size=24, neighbours=4)
            sampler.set_epoch(epoch)
            order = list(sampler.order())
            positions = [file_order.index(item) for item in order]
            runs = 1 + sum(1 for a, b in zip(positions, positions[1:]) if b != a + 1)
            self.assertLessEqual(runs, 24 // 4 + 1)  # runs of 4 adjacent clips (one cut short at each end)
        self.assertEqual(list(SegmentBatchSampler(self.data, batch_size=24, shuffle=False).order()), file_order)

    def test_bad_arguments_are_named(self):
        with self.assertRaisesRegex(ValueError, "batch_size must be positive, got 0"):
            SegmentBatchSampler(self.data, batch_size=0)
        with self.assertRaisesRegex(ValueError, "neighbours must be positive"):
            SegmentBatchSampler(self.data, neighbours=0)


class StatisticsTests(unittest.TestCase):
    def test_a_test_export_warns_that_its_statistics_are_its_own(self):
        test = support.features("test-split", "--split", "test", "--targets", "irm")
        with h5py.File(test, "r") as f:
            self.assertEqual(f["stats/noisy"].attrs["split"], "all")
        with self.assertWarns(StatisticsSplitWarning) as caught:
            SEKitFeatureDataset(test, target="irm")
        message = str(caught.warning)
        self.assertIn(test, message)
        self.assertIn("/stats/noisy the split 'all'", message)
        self.assertIn("stats_from=", message)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            SEKitFeatureDataset(test, target="irm", normalize=False)  # no statistics used: no warning

    def test_stats_from_the_training_export(self):
        train = support.features("train-split", "--split", "train", "--targets", "irm")
        test = support.features("test-split", "--split", "test", "--targets", "irm")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            data = SEKitFeatureDataset(test, target="irm", stats_from=train)
        raw = SEKitFeatureDataset(test, target="irm", normalize=False)
        with h5py.File(train, "r") as f:
            mean, std = f["stats/noisy/mean"][()].astype(np.float32), f["stats/noisy/std"][()].astype(np.float32)
            self.assertEqual(f["stats/noisy"].attrs["split"], "train")
        self.assertEqual(data.stats_path, train)
        for item in range(len(data)):
            np.testing.assert_array_equal(data[item][0], (raw[item][0] - mean) / np.where(std < 1e-8, 1, std))
            np.testing.assert_array_equal(data[item][1], raw[item][1])

    def test_stats_from_other_features_is_refused(self):
        test = support.features("test-split", "--split", "test", "--targets", "irm")
        for name, options, attribute, there, here in [
            ("train-nfft256", ["--n-fft", "256"], "n_fft", "256", "512"),
            ("train-log1p", ["--feature", "log1p"], "feature", "'log1p'", "'magnitude'"),
        ]:
            other = support.features(name, "--split", "train", "--targets", "irm", *options)
            with self.assertRaises(StatisticsMismatchError) as caught:
                SEKitFeatureDataset(test, target="irm", stats_from=other)
            message = str(caught.exception)
            for part in (other, test, f"attribute '{attribute}' is {there} there, {here} here"):
                self.assertIn(part, message)

    def test_stats_from_needs_the_statistics(self):
        test = support.features("test-split", "--split", "test", "--targets", "irm")
        train = support.features("train-split", "--split", "train", "--targets", "irm")
        with self.assertRaisesRegex(KeyError, "no statistics /stats/irm"):
            SEKitFeatureDataset(test, target="irm", stats_from=train, normalize_target=True)


@unittest.skipIf(torch is None, "torch is optional (scripts/requirements-torch.txt)")
class DataLoaderTests(unittest.TestCase):
    def test_batch_sampler_with_workers_gives_the_batches(self):
        data = SEKitFeatureDataset(support.features("plain", "--targets", "clean,irm"), target="irm",
                                   segment_frames=128, seed=5)
        self.assertIsInstance(data, torch.utils.data.Dataset)
        sampler = SegmentBatchSampler(data, batch_size=6, seed=5)
        sampler.set_epoch(3)
        want = list(data.batches(sampler))
        for workers, collate in [(0, None), (2, None), (0, collate_batch), (2, collate_batch)]:
            loader = torch.utils.data.DataLoader(data, batch_sampler=sampler, num_workers=workers,
                                                 collate_fn=collate)
            got = list(loader)
            self.assertEqual(len(got), len(want))
            for (noisy, irm, ids), (want_noisy, want_irm, want_ids) in zip(got, want):
                self.assertEqual(list(ids), want_ids)
                self.assertEqual((noisy.dtype, tuple(noisy.shape)), (torch.float32, (len(want_ids), 128, 257)))
                np.testing.assert_array_equal(noisy.numpy(), want_noisy)
                np.testing.assert_array_equal(irm.numpy(), want_irm)

    def test_collate_batch_without_a_target_and_for_other_batches(self):
        data = SEKitFeatureDataset(support.features("plain", "--targets", "clean,irm"), target=None, segment_frames=32)
        noisy, target, ids = collate_batch(data.__getitems__([4, 0]))
        self.assertIsNone(target)
        np.testing.assert_array_equal(noisy.numpy(), np.stack([data[4][0], data[0][0]]))
        self.assertEqual(ids, [data[4][2], data[0][2]])
        plain = collate_batch([(np.ones((2, 3), np.float32), "a"), (np.zeros((2, 3), np.float32), "b")])
        self.assertEqual((tuple(plain[0].shape), list(plain[1])), ((2, 2, 3), ["a", "b"]))


if __name__ == "__main__":
    unittest.main()
