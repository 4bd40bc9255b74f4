"""docs/train-your-model.md, run as written: its shell blocks in order (with `sekit` and this
environment's `python` on PATH, SPEECH and NOISE the fixtures), and its Python block equal to
experiments/python/examples/train_mask_model.py. Then the lineage it promises, read from the
catalogue: score <- synthesize <- train <- features <- mix."""

import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import unittest

from tests import support

PAGE = os.path.join(support.ROOT, "docs", "train-your-model.md")
SCRIPT = os.path.join(support.PACKAGE_FOLDER, "examples", "train_mask_model.py")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def blocks(language):
    return re.findall(r"```" + language + r"\n(.*?)```", read(PAGE), re.S)


class WalkthroughTests(unittest.TestCase):
    def test_the_python_block_is_the_script(self):
        self.assertEqual(blocks("python"), [read(SCRIPT)])

    def test_the_page_runs_and_records_the_whole_lineage(self):
        try:
            import torch  # noqa: F401
        except ImportError:
            support.require(False, "needs torch (scripts/python-env.sh installs it)")
        binary, fixtures = support.sekit_binary(), support.fixtures()
        with tempfile.TemporaryDirectory(prefix="sekit-walkthrough-") as folder:
            bin_folder = os.path.join(folder, "bin")
            os.makedirs(bin_folder)
            os.symlink(binary, os.path.join(bin_folder, "sekit"))
            with open(os.path.join(bin_folder, "python"), "w") as f:  # this environment's interpreter
                f.write(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
            os.chmod(os.path.join(bin_folder, "python"), 0o755)
            environment = dict(os.environ, PATH=bin_folder + os.pathsep + os.environ["PATH"],
                               SPEECH=os.path.join(fixtures, "speech"), NOISE=os.path.join(fixtures, "noise"),
                               PYTHONPATH=support.PACKAGE_FOLDER)
            environment.pop("SEKIT_CATALOG", None)
            outputs = []
            for script in blocks("sh"):
                script = script.replace("experiments/python/examples/", os.path.dirname(SCRIPT) + "/")
                done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=folder, env=environment,
                                      capture_output=True, text=True)
                self.assertEqual(done.returncode, 0, f"{script}\n{done.stderr[-3000:]}")
                outputs.append(done.stdout)
            show, diff = outputs[1], outputs[2]
            self.assertIn("train_loss", show)
            self.assertIn("checkpoint", show)
            self.assertRegex(diff, r"train\.lr")
            db = sqlite3.connect(os.path.join(folder, "catalog.sqlite"))
            score = db.execute("SELECT id, parent_id FROM runs WHERE kind = 'score' AND id IN "
                               "(SELECT run_id FROM params WHERE key = 'enhanced')").fetchall()
            self.assertEqual(len(score), 1)
            chain, run = [], score[0][0]
            while run:
                kind, parent = db.execute("SELECT kind, parent_id FROM runs WHERE id = ?", (run,)).fetchone()
                chain.append(kind)
                run = parent
            self.assertEqual(chain, ["score", "synthesize", "train", "features", "mix"])
            steps = db.execute("SELECT count(*) FROM run_step_metrics WHERE key = 'valid_loss'").fetchone()[0]
            self.assertEqual(steps, 5)
            # The page's filter reaches the training run's learning rate from its descendants.
            listed = support.sekit("runs", "list", "--filter", "lineage.params.lr = 0.01", "--format", "csv",
                                   "--catalog", os.path.join(folder, "catalog.sqlite"), records=False)
            header, *rows = [line.split(",") for line in listed.strip().splitlines()]
            kinds = sorted(row[header.index("kind")] for row in rows)
            self.assertEqual(kinds, ["score", "synthesize", "train"])


if __name__ == "__main__":
    unittest.main()
