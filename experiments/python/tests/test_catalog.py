"""sekit.catalog on a catalogue written by the real binary (a mix, a score run, a training run through
sekit.tracking): every table as DataFrames and as lists, read-only, run names resolved by the binary."""

import datetime
import hashlib
import os
import sqlite3
import subprocess
import sys
import unittest

import sekit.catalog as catalog
import sekit.tracking as tracking
from tests import tracking_support as support

try:
    import pandas
except ImportError:
    pandas = None

PACKAGE_FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CatalogTests(support.FolderTestCase):
    def setUp(self):
        super().setUp()
        for index in range(4):
            support.write_wav(self.path("speech", f"s{index}.wav"), seconds=1.5, frequency_hz=300 + 50 * index)
        for index in range(2):
            support.write_wav(self.path("noise", f"n{index}.wav"), seconds=3, frequency_hz=1000 + 300 * index, amplitude=0.1)
        support.sekit("mix", "--speech", self.path("speech"), "--noise", self.path("noise"), "--count", "4", "--seconds", "1",
                      "--seed", "1", "--out", self.path("corpus"), catalog=self.catalog)
        support.sekit("score", "--corpus", self.path("corpus"), "--metrics", "snr,sisdr", catalog=self.catalog)
        with tracking.start_run(name="crnn", catalog=self.catalog, parent="corpus", params={"lr": 0.001, "epochs": 2},
                                tags={"stage": "done"}) as run:
            for epoch in range(2):
                run.log_metrics({"loss": 1.0 / (epoch + 1), "valid_stoi": 0.5 + epoch / 4}, step=epoch)
        self.train = run.id
        self.mix, self.score = (support.query(self.catalog, "SELECT id FROM runs WHERE kind = ?", [kind])[0][0]
                                for kind in ("mix", "score"))

    def test_every_table_reads_as_lists(self):
        runs = catalog.runs(self.catalog, as_frame=False)
        self.assertEqual([run["kind"] for run in runs], ["train", "score", "mix"], "newest first")
        self.assertEqual(runs[0]["parent_id"], self.mix)
        self.assertIsInstance(runs[0]["started_at"], datetime.datetime)
        self.assertEqual(runs[0]["started_at"].tzinfo, datetime.timezone.utc)
        self.assertEqual([run["id"] for run in catalog.runs(self.catalog, kind="score", as_frame=False)], [self.score])

        self.assertEqual({(p["key"], p["value"]) for p in catalog.params("crnn", self.catalog, as_frame=False)},
                         {("lr", 0.001), ("epochs", 2)})
        self.assertEqual(catalog.tags(self.train, self.catalog, as_frame=False), [{"run_id": self.train, "key": "stage", "value": "done"}])
        steps = catalog.metrics("crnn", self.catalog, as_frame=False)
        self.assertEqual([(m["key"], m["step"], m["value"]) for m in steps],
                         [("loss", 0, 1.0), ("loss", 1, 0.5), ("valid_stoi", 0, 0.5), ("valid_stoi", 1, 0.75)])
        clips = catalog.clips(self.mix, self.catalog, as_frame=False)
        self.assertEqual([clip["clip_index"] for clip in clips], [0, 1, 2, 3])
        self.assertTrue(all(clip["run_id"] == self.mix and clip["noisy_path"] for clip in clips))
        scores = catalog.scores(self.score, self.catalog, as_frame=False)
        self.assertEqual(len(scores), 8, "4 clips x 2 metrics")
        self.assertEqual({s["metric"] for s in scores}, {"snr", "sisdr"})
        self.assertEqual({s["clip_id"] for s in scores}, {clip["id"] for clip in clips}, "scores join to the clips")

        # The corpus by its identity (the hash of mix.json and the manifest), made by the mix run, and
        # what the score run scored of it.
        corpora = catalog.corpora(self.catalog, as_frame=False)
        self.assertEqual(len(corpora), 1)
        self.assertEqual((len(corpora[0]["identity"]), corpora[0]["name"], corpora[0]["mix_runs"]), (64, "corpus", self.mix))
        self.assertEqual(corpora[0]["path"], os.path.abspath(self.path("corpus")))
        self.assertIsInstance(corpora[0]["recorded_at"], datetime.datetime)
        self.assertEqual(catalog.score_targets(self.score, self.catalog, as_frame=False),
                         [{"run_id": self.score, "corpus": corpora[0]["identity"], "folder": None, "scored": "noisy",
                           "enhanced_folder": None, "enhance_run_id": None}])

    @unittest.skipIf(pandas is None and not support.under_ci(), "pandas is not installed")
    def test_frames_hold_the_same_rows(self):
        frame = catalog.metrics("crnn", self.catalog)
        self.assertIsInstance(frame, pandas.DataFrame)
        self.assertEqual(list(frame.columns), ["run_id", "key", "step", "value", "time"])
        self.assertEqual(frame["value"].tolist(), [1.0, 0.5, 0.5, 0.75])
        self.assertTrue(str(frame["time"].dtype).startswith("datetime64"))
        for read in (catalog.runs, catalog.params, catalog.tags, catalog.clips):
            self.assertEqual(read(catalog=self.catalog).to_dict("records"),
                             pandas.DataFrame(read(catalog=self.catalog, as_frame=False)).to_dict("records"), read.__name__)
        self.assertEqual(len(catalog.scores(self.score, self.catalog)), 8)
        self.assertEqual(list(catalog.scores(self.score, self.catalog).columns),
                         ["run_id", "clip_id", "metric", "value", "noisy_value", "error"])

    def test_without_pandas_lists_are_returned(self):
        # pandas blocked (None in sys.modules makes its import fail), as where it is not installed.
        code = ("import sys; sys.modules['pandas'] = None; import sekit.catalog as c; "
                "print(type(c.runs(sys.argv[1])).__name__, len(c.metrics(sys.argv[2], sys.argv[1])))")
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_FOLDER, os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, "-c", code, self.catalog, self.train], capture_output=True, text=True,
                              env=environment)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.split(), ["list", "4"])

    def test_reading_never_writes(self):
        def fingerprint():
            with open(self.catalog, "rb") as f:
                return hashlib.sha256(f.read()).hexdigest(), os.stat(self.catalog).st_mtime_ns
        before = fingerprint()
        catalog.runs(self.catalog)
        catalog.metrics(self.train, self.catalog)
        catalog.scores(self.score, self.catalog)
        self.assertEqual(fingerprint(), before)
        connection = catalog.connect(self.catalog)
        try:
            with self.assertRaises(sqlite3.OperationalError):
                connection.execute("DELETE FROM runs")
        finally:
            connection.close()
        with self.assertRaisesRegex(catalog.CatalogError, "no catalogue here"):
            catalog.runs(self.path("missing.sqlite"))

    def test_aggregates_are_the_runs_stored_means(self):
        rows = catalog.aggregates(self.score, self.catalog, as_frame=False)
        overall = {row["metric"]: row for row in rows if row["subset"] == ""}
        self.assertEqual(set(overall), {"snr", "sisdr"})
        self.assertEqual(overall["snr"]["n"], 4)
        values = [s["value"] for s in catalog.scores(self.score, self.catalog, as_frame=False) if s["metric"] == "snr"]
        self.assertAlmostEqual(overall["snr"]["mean"], sum(values) / len(values), places=9)
        self.assertLess(overall["snr"]["ci95_low"], overall["snr"]["mean"])
        self.assertEqual(catalog.aggregates(self.train, self.catalog, as_frame=False), [], "a training run has none")

    def test_only_the_versioned_views_are_read(self):
        # The package's SQL names views, never tables: renaming every table away leaves the package working
        # as long as views of the same names and columns exist (what a later schema keeps).
        copy = self.path("views-only.sqlite")
        with sqlite3.connect(self.catalog) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        connection = sqlite3.connect(copy)
        views = dict(connection.execute("SELECT name, sql FROM sqlite_master WHERE type = 'view'").fetchall())
        self.assertEqual(set(views), set(catalog.VIEWS) | {"sekit_v1_corpora", "sekit_v1_corpus_mix_runs", "sekit_v1_score_targets"})
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        connection.execute("PRAGMA legacy_alter_table = ON")  # views keep naming the old tables
        for view in views:
            connection.execute(f"DROP VIEW {view}")
        for table in tables:
            connection.execute(f'ALTER TABLE "{table}" RENAME TO "old_{table}"')
        for view, sql in views.items():
            for table in sorted(tables, key=len, reverse=True):
                sql = sql.replace(f"FROM {table}\n", f"FROM old_{table}\n").replace(f"FROM {table};", f"FROM old_{table};")
                if sql.rstrip().endswith(f"FROM {table}"):
                    sql = sql.rstrip()[: -len(table)] + f"old_{table}"
            connection.execute(sql)
        connection.commit()
        connection.close()
        self.assertEqual(catalog.runs(copy, as_frame=False), catalog.runs(self.catalog, as_frame=False))
        self.assertEqual(catalog.scores(self.score, copy, as_frame=False), catalog.scores(self.score, self.catalog, as_frame=False))
        self.assertEqual(catalog.metrics(self.train, copy, as_frame=False), catalog.metrics(self.train, self.catalog, as_frame=False))
        self.assertEqual(catalog.clips(self.mix, copy, as_frame=False), catalog.clips(self.mix, self.catalog, as_frame=False))
        self.assertEqual(catalog.corpora(copy, as_frame=False), catalog.corpora(self.catalog, as_frame=False))
        self.assertEqual(catalog.score_targets(None, copy, as_frame=False), catalog.score_targets(None, self.catalog, as_frame=False))

    def test_a_catalogue_without_the_views_is_named_with_the_fix(self):
        copy = self.path("older.sqlite")
        with sqlite3.connect(self.catalog) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        with sqlite3.connect(copy) as connection:
            connection.execute("DROP VIEW sekit_v1_clip_scores")
        with self.assertRaisesRegex(catalog.CatalogError, r"older\.sqlite: the catalogue has no view sekit_v1_clip_scores.*migrates it"):
            catalog.scores(self.score, copy)
        with open(self.path("not.sqlite"), "wb") as f:
            f.write(b"not a database at all" * 100)
        with self.assertRaisesRegex(catalog.CatalogError, "not.sqlite: not a catalogue"):
            catalog.runs(self.path("not.sqlite"))

    def test_names_and_prefixes_resolve_through_the_binary(self):
        self.assertEqual(len(catalog.metrics(self.train[:8], self.catalog, as_frame=False)), 4)
        with self.assertRaisesRegex(catalog.CatalogError, r"(?s)no run has the id, id prefix or name 'crn'.*crnn"):
            catalog.metrics("crn", self.catalog)
        # A name is its latest finished run (this one logged nothing); runs of a name none of which
        # finished are ambiguous.
        tracking.start_run(name="crnn", catalog=self.catalog).finish()
        self.assertEqual(len(catalog.metrics("crnn", self.catalog, as_frame=False)), 0)
        tracking.start_run(name="rnn", catalog=self.catalog)
        tracking.start_run(name="rnn", catalog=self.catalog)
        with self.assertRaisesRegex(catalog.CatalogError, "'rnn' names 2 runs"):
            catalog.metrics("rnn", self.catalog)
        saved = os.environ.pop("SEKIT_BINARY"), os.environ.get("PATH", "")
        os.environ["PATH"] = self.folder
        try:
            self.assertEqual(len(catalog.metrics(self.train, self.catalog, as_frame=False)), 4, "an id needs no binary")
            with self.assertRaisesRegex(catalog.CatalogError, "SEKIT_BINARY"):
                catalog.metrics("crnn", self.catalog)
        finally:
            os.environ["SEKIT_BINARY"], os.environ["PATH"] = saved

    def test_the_default_catalogue_is_the_binarys(self):
        saved = os.environ.get("SEKIT_CATALOG")
        os.environ["SEKIT_CATALOG"] = self.catalog
        try:
            self.assertEqual(catalog.default_path(), self.catalog)
            self.assertEqual(len(catalog.runs(as_frame=False)), 3)
        finally:
            if saved is None:
                os.environ.pop("SEKIT_CATALOG")
            else:
                os.environ["SEKIT_CATALOG"] = saved


if __name__ == "__main__":
    unittest.main()
