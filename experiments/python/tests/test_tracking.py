"""sekit.tracking against the real `sekit` binary and a real catalogue file: the run lifecycle, what is
refused, a killed script, SEKIT_RUN_ID, many steps and concurrent scripts."""

import os
import signal
import subprocess
import sys
import textwrap
import time
import unittest

import sekit.tracking as tracking
from tests import tracking_support as support

PACKAGE_FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def python(code, *arguments):
    """Runs `code` in another Python process with the package importable; returns the CompletedProcess."""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_FOLDER, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *arguments], capture_output=True, text=True,
                          env=environment)


class TrackingTests(support.FolderTestCase):
    def steps(self, run_id):
        return support.query(self.catalog, "SELECT key, step, value FROM run_step_metrics WHERE run_id = ? ORDER BY key, step",
                             [run_id])

    def run_row(self, run_id):
        return support.query(self.catalog, "SELECT kind, name, status, error, parent_id, pid FROM runs WHERE id = ?", [run_id])[0]

    def test_a_run_from_start_to_finish(self):
        features = support.sekit("runs", "start", "--kind", "features", "--name", "train-features",
                                 catalog=self.catalog).stdout.strip()
        support.sekit("runs", "finish", features, catalog=self.catalog)
        os.environ["SEKIT_RUN_ID"] = "outer"
        self.addCleanup(os.environ.pop, "SEKIT_RUN_ID", None)
        checkpoint = self.path("crnn.pt")
        with tracking.start_run(name="crnn", kind="train", catalog=self.catalog, parent="train-features",
                                params={"lr": 1e-3, "amp": True}, tags={"stage": "warm-up"}) as run:
            self.assertEqual(os.environ["SEKIT_RUN_ID"], run.id)
            self.assertEqual(self.run_row(run.id)[:3], ("train", "crnn", "running"))
            run.log_params({"epochs": 3, "optimizer": "adam"})
            for epoch in range(3):
                run.log_metrics({"loss": 1.0 / (epoch + 1), "valid_stoi": 0.5 + epoch / 10}, step=epoch)
            run.log_metrics({"loss": 0.2})                      # the next step: 3
            with open(checkpoint, "wb") as f:
                f.write(b"weights")
            run.log_artifact(checkpoint, kind="checkpoint")
            run.set_tags({"stage": "done"})
        self.assertEqual(os.environ["SEKIT_RUN_ID"], "outer", "SEKIT_RUN_ID is restored")
        kind, name, status, error, parent, pid = self.run_row(run.id)
        self.assertEqual((kind, name, status, error, parent, pid), ("train", "crnn", "finished", None, features, os.getpid()))
        self.assertEqual(self.steps(run.id), [("loss", 0, 1.0), ("loss", 1, 0.5), ("loss", 2, 1 / 3), ("loss", 3, 0.2),
                                              ("valid_stoi", 0, 0.5), ("valid_stoi", 1, 0.6), ("valid_stoi", 2, 0.7)])
        params = dict(support.query(self.catalog, "SELECT key, value_text FROM params WHERE run_id = ?", [run.id]))
        self.assertEqual(params, {"lr": "0.001", "amp": "true", "epochs": "3", "optimizer": "adam"})
        self.assertEqual(support.query(self.catalog, "SELECT key, value FROM run_tags WHERE run_id = ?", [run.id]), [("stage", "done")])
        artifacts = support.query(self.catalog, "SELECT path, kind, bytes FROM artifacts WHERE run_id = ?", [run.id])
        self.assertEqual(artifacts, [(checkpoint, "checkpoint", 7)])
        shown = support.sekit("runs", "show", "crnn", catalog=self.catalog).stdout
        self.assertIn("loss: 4 steps (0…3)", shown)

    def test_an_exception_fails_the_run_and_goes_on(self):
        with self.assertRaises(ZeroDivisionError):
            with tracking.start_run(name="crnn", catalog=self.catalog) as run:
                run.log_metrics({"loss": 1.0}, step=0)
                1 / 0
        self.assertEqual(self.run_row(run.id)[2:4], ("failed", "ZeroDivisionError('division by zero')"))
        self.assertEqual(self.steps(run.id), [("loss", 0, 1.0)], "what was logged before stays")
        self.assertNotIn("SEKIT_RUN_ID", os.environ)

    def test_a_killed_script_leaves_its_run_running_with_what_it_logged(self):
        done = python("""
            import os, signal, sys, sekit.tracking
            run = sekit.tracking.start_run(name="crnn", catalog=sys.argv[1])
            print(run.id, flush=True)
            for step in range(5):
                run.log_metrics({"loss": 1.0 / (step + 1)}, step=step)
            os.kill(os.getpid(), signal.SIGKILL)
            """, self.catalog)
        self.assertEqual(done.returncode, -signal.SIGKILL, done.stderr)
        run_id = done.stdout.strip()
        # The runs log process reads the pipe to its end and commits, then exits.
        deadline = time.time() + 30
        while len(self.steps(run_id)) < 5 and time.time() < deadline:
            time.sleep(0.05)
        self.assertEqual([step for _, step, _ in self.steps(run_id)], [0, 1, 2, 3, 4])
        self.assertEqual(self.run_row(run_id)[2], "running")
        check = support.sekit("catalog", "check", catalog=self.catalog, check=False)
        self.assertEqual(check.returncode, 1, check.stderr)
        status, error = self.run_row(run_id)[2:4]
        self.assertEqual(status, "failed")
        self.assertIn("is gone", error)

    def test_values_are_checked_at_once_and_refusals_surface(self):
        with tracking.start_run(name="crnn", catalog=self.catalog) as run:
            for bad in (float("nan"), float("inf"), "high"):
                with self.assertRaisesRegex(ValueError, "metric loss"):
                    run.log_metrics({"loss": bad}, step=0)
            for step in (-1, 1.5, True):
                with self.assertRaisesRegex(ValueError, "step"):
                    run.log_metrics({"loss": 1.0}, step=step)
            run.log_metrics({"loss": 1.0}, step=0)
            run.log_metrics({"loss": 1.0}, step=0)                 # the same value again: accepted
            run.log_metrics({"loss": 2.0}, step=0)                 # another value: refused by the catalogue
            with self.assertRaisesRegex(tracking.TrackingError, r"(?s)refused 1 line.*metric loss.*step 0"):
                run.flush()
            run.log_params({"lr": 0.1})
            run.log_params({"lr": 0.2})
            with self.assertRaisesRegex(tracking.TrackingError, "param lr"):
                run.flush()
            run.log_metrics({"loss": 0.5}, step=1)
        self.assertEqual(self.run_row(run.id)[2], "finished")
        self.assertEqual(self.steps(run.id), [("loss", 0, 1.0), ("loss", 1, 0.5)])

    def test_an_ended_run_takes_nothing(self):
        with tracking.start_run(name="crnn", catalog=self.catalog) as run:
            run.log_metrics({"loss": 1.0}, step=0)
        with self.assertRaisesRegex(tracking.TrackingError, "has ended"):
            run.log_metrics({"loss": 1.0}, step=1)
        with self.assertRaisesRegex(tracking.TrackingError, "has ended"):
            run.log_artifact(__file__)
        refused = support.sekit("runs", "log", run.id, "--step", "1", "--metric", "loss=1", catalog=self.catalog, check=False)
        self.assertEqual(refused.returncode, 1)
        self.assertIn("is finished", refused.stderr)

    def test_ten_thousand_steps_of_five_metrics(self):
        started = time.perf_counter()
        with tracking.start_run(name="long", catalog=self.catalog) as run:
            for step in range(10_000):
                run.log_metrics({"loss": 1.0 / (step + 1), "valid_stoi": 0.5, "valid_pesq": 2.5, "lr": 1e-3, "grad_norm": step % 7},
                                step=step)
        seconds = time.perf_counter() - started
        count, last = support.query(self.catalog, "SELECT count(*), max(step) FROM run_step_metrics WHERE run_id = ?", [run.id])[0]
        self.assertEqual((count, last), (50_000, 9_999))
        print(f"\n10,000 steps x 5 metrics through sekit.tracking: {seconds:.2f} s", file=sys.stderr)

    def test_eight_scripts_log_into_one_catalogue_at_once(self):
        script = """
            import sys, sekit.tracking
            with sekit.tracking.start_run(name="worker-" + sys.argv[2], catalog=sys.argv[1]) as run:
                for step in range(300):
                    run.log_metrics({f"m{k}": step + k / 10 for k in range(5)}, step=step)
                    if step % 50 == 0:
                        run.set_tags({"progress": str(step)})
            """
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_FOLDER, os.environ.get("PYTHONPATH", "")]))
        workers = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), self.catalog, str(index)], env=environment,
                                    stderr=subprocess.PIPE, text=True) for index in range(8)]
        for worker in workers:
            _, errors = worker.communicate(timeout=300)
            self.assertEqual(worker.returncode, 0, errors)
        rows = support.query(self.catalog, """
            SELECT r.name, r.status, count(s.step) FROM runs r JOIN run_step_metrics s ON s.run_id = r.id GROUP BY r.id ORDER BY r.name
            """)
        self.assertEqual(rows, [(f"worker-{index}", "finished", 1500) for index in range(8)])

    def test_a_missing_binary_is_named(self):
        saved = os.environ.pop("SEKIT_BINARY", None), os.environ.get("PATH", "")
        os.environ["PATH"] = self.folder
        try:
            with self.assertRaisesRegex(tracking.TrackingError, "SEKIT_BINARY"):
                tracking.start_run(name="crnn", catalog=self.catalog)
        finally:
            if saved[0] is not None:
                os.environ["SEKIT_BINARY"] = saved[0]
            os.environ["PATH"] = saved[1]
        with self.assertRaisesRegex(tracking.TrackingError, "no run has the id, id prefix or name 'no-such-run'"):
            tracking.start_run(name="crnn", catalog=self.catalog, parent="no-such-run")


if __name__ == "__main__":
    unittest.main()
