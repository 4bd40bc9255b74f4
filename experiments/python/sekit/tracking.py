"""Runs made in Python, recorded in SEKit's catalogue, in MLflow's shape.

    import sekit.tracking
    with sekit.tracking.start_run(name="crnn-a", kind="train", catalog="experiments/catalog.sqlite",
                                  parent=FEATURES_RUN) as run:
        run.log_params({"lr": 1e-3, "epochs": 40})
        for epoch in range(40):
            run.log_metrics({"loss": loss, "valid_stoi": stoi}, step=epoch)
        run.log_artifact("crnn-a.pt", kind="checkpoint")
        run.set_tags({"stage": "done"})

Everything goes through the ``sekit`` binary (``$SEKIT_BINARY``, else ``sekit`` on ``PATH``), so the
catalogue's schema and the run lifecycle keep one home: ``sekit runs start`` begins the run (it
belongs to this Python process), one ``sekit runs log RUN --jsonl - --acknowledge`` process per run
takes the metrics, parameters and tags, ``sekit runs artifact`` records files and ``sekit runs
finish`` ends the run (``--failed "<repr of the exception>"`` when the ``with`` block raises).

A line handed to the ``runs log`` process is committed by it even if this process is killed right
after (it reads the pipe to its end), so a killed training script loses nothing it logged and
leaves its run ``running``, which ``sekit catalog check`` marks ``failed``. ``log_metrics`` does not
wait for the commit: what the catalogue refuses (a step logged before with another value, a
parameter changed) raises ``TrackingError`` at the next call, at ``flush()`` or at the end of the
block; what needs no catalogue (a finite number per metric, a whole step) raises ``ValueError`` at
once. See docs/tracking.md.
"""

import json
import math
import numbers
import os
import shutil
import subprocess
import threading
import time

__all__ = ["Run", "TrackingError", "start_run"]

# Seconds to wait for the `runs log` process to commit what is left and exit when a run ends.
_STREAM_EXIT_TIMEOUT_SECONDS = 120


class TrackingError(RuntimeError):
    """The catalogue (the ``sekit`` binary) refused something, or the binary could not be run."""


def _binary():
    path = os.environ.get("SEKIT_BINARY") or shutil.which("sekit")
    if not path:
        raise TrackingError("the sekit binary was not found: set SEKIT_BINARY to its path or put sekit on PATH")
    return path


def _text(value):
    """A parameter or tag value as the catalogue stores it (booleans as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _pairs(option, values):
    arguments = []
    for key, value in (values or {}).items():
        arguments += [option, f"{key}={_text(value)}"]
    return arguments


def _run_binary(arguments, catalog):
    command = [_binary(), *arguments] + (["--catalog", os.fspath(catalog)] if catalog is not None else [])
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise TrackingError(done.stderr.strip() or f"{' '.join(command)} exited with status {done.returncode}")
    return done.stdout


def start_run(name, kind="train", catalog=None, parent=None, params=None, tags=None):
    """Begins a run in the catalogue (``sekit runs start``) and returns it.

    Args:
        name: the run's name (a model, a checkpoint).
        kind: the run's kind, ``train`` by default (any kind ``sekit runs start --kind`` takes).
        catalog: the catalogue file; None: the binary's default (``$SEKIT_CATALOG``, else
            ``experiments/catalog.sqlite`` under the current folder).
        parent: the run it derives from (a features run): id, unique id prefix or name.
        params, tags: dicts recorded with the run.

    Returns:
        a ``Run``, usable as a context manager: inside the ``with`` block ``SEKIT_RUN_ID`` is the
        run's id, and the block's end finishes the run (or fails it, if the block raises).

    Raises:
        TrackingError: the binary is missing or refused (an unknown parent, an empty name, ...).
    """
    arguments = ["runs", "start", "--kind", kind, "--name", name, "--pid", str(os.getpid())]
    arguments += _pairs("--param", params) + _pairs("--tag", tags)
    if parent is not None:
        arguments += ["--parent", str(getattr(parent, "id", parent))]
    run_id = _run_binary(arguments, catalog).strip()
    return Run(run_id, name=name, kind=kind, catalog=catalog)


class Run:
    """A run begun by ``start_run``: ``id``, ``name``, ``kind``, ``catalog`` (None: the default)."""

    def __init__(self, run_id, name, kind, catalog=None):
        self.id = run_id
        self.name = name
        self.kind = kind
        self.catalog = catalog
        self._next_step = 0
        self._ended = False
        self._process = None
        self._reader = None
        self._condition = threading.Condition()
        self._sent = 0
        self._answered = 0
        self._refusals = []
        self._refused = 0
        self._saved_run_id = None

    def __repr__(self):
        return f"Run(id={self.id!r}, name={self.name!r}, kind={self.kind!r})"

    # The with block.

    def __enter__(self):
        self._saved_run_id = os.environ.get("SEKIT_RUN_ID")
        os.environ["SEKIT_RUN_ID"] = self.id
        return self

    def __exit__(self, exc_type, exc, traceback):
        try:
            if exc is None:
                self.finish()
            elif not self._ended:
                try:
                    self.fail(repr(exc))
                except Exception:  # the block's own exception is what the caller needs to see
                    pass
        finally:
            if self._saved_run_id is None:
                os.environ.pop("SEKIT_RUN_ID", None)
            else:
                os.environ["SEKIT_RUN_ID"] = self._saved_run_id
        return False

    # Logging.

    def log_metrics(self, metrics, step=None):
        """Logs metric values at ``step`` (default: the step after the last one this run logged, 0 first).

        Raises:
            ValueError: a value that is not a finite number, or a step that is not a whole number >= 0
                (naming the metric or the step); nothing of the call is logged then.
            TrackingError: the catalogue refused an earlier line, or the run has ended.
        """
        if step is None:
            step = self._next_step
        if isinstance(step, bool) or not isinstance(step, numbers.Integral) or step < 0:
            raise ValueError(f"step {step!r}: a step is a whole number, 0 or more")
        values = {}
        for key, value in metrics.items():
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"metric {key} = {value!r}: not a number") from None
            if not math.isfinite(number):
                raise ValueError(f"metric {key} = {number}: not a finite number; metrics are finite values")
            values[str(key)] = number
        if not values:
            raise ValueError("log_metrics: no metric given")
        self._send({"step": int(step), "metrics": values, "time": time.time()})
        self._next_step = max(self._next_step, int(step) + 1)

    def log_params(self, params):
        """Adds parameters; one the run has already keeps its value (another value raises TrackingError)."""
        if params:
            self._send({"params": {str(key): _text(value) for key, value in params.items()}})

    def set_tags(self, tags):
        """Sets tags (a tag set again takes the new value)."""
        if tags:
            self._send({"tags": {str(key): _text(value) for key, value in tags.items()}})

    def log_artifact(self, path, kind=None):
        """Records a file (hashed) or a folder the run produced (``sekit runs artifact``)."""
        self._require_running()
        arguments = ["runs", "artifact", self.id, os.path.abspath(os.fspath(path))]
        _run_binary(arguments + (["--kind", kind] if kind else []), self.catalog)

    def flush(self):
        """Waits until every line sent is committed; raises TrackingError for lines refused."""
        with self._condition:
            while self._process is not None and self._answered < self._sent and self._reader.is_alive():
                self._condition.wait(0.1)
        self._raise_refusals()

    # The end.

    def finish(self):
        """Ends the run ``finished`` (after the stream has committed everything). Lines the catalogue
        refused raise TrackingError afterwards."""
        if self._ended:
            return
        try:
            self._close_stream()
        except TrackingError as error:
            # What the stream had not committed is lost: the run did not record all its work.
            self._ended = True
            _run_binary(["runs", "finish", self.id, "--failed", str(error)], self.catalog)
            raise
        self._ended = True
        _run_binary(["runs", "finish", self.id], self.catalog)
        self._raise_refusals()

    def fail(self, reason):
        """Ends the run ``failed`` with ``reason`` stored as its error."""
        if self._ended:
            return
        try:
            self._close_stream()
        finally:
            self._ended = True
            _run_binary(["runs", "finish", self.id, "--failed", str(reason) or "failed"], self.catalog)

    # The stream.

    def _require_running(self):
        if self._ended:
            raise TrackingError(f"run {self.id} ({self.name}) has ended; it takes nothing more")

    def _start_stream(self):
        command = [_binary(), "runs", "log", self.id, "--jsonl", "-", "--acknowledge"]
        if self.catalog is not None:
            command += ["--catalog", os.fspath(self.catalog)]
        # Its own session: a Ctrl-C (SIGINT to the foreground process group) stops the script, not the
        # process committing what the script logged; it ends when the pipe closes.
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                         encoding="utf-8", start_new_session=True)
        self._reader = threading.Thread(target=self._read_answers, name=f"sekit-runs-log-{self.id[:8]}", daemon=True)
        self._reader.start()

    def _read_answers(self):
        for line in self._process.stdout:
            with self._condition:
                self._answered += 1
                if not line.startswith("ok"):
                    self._refusals.append(line.strip().removeprefix("error: "))
                    self._refused += 1
                self._condition.notify_all()
        with self._condition:
            self._condition.notify_all()

    def _raise_refusals(self):
        with self._condition:
            refusals, self._refusals = self._refusals, []
        if refusals:
            raise TrackingError(f"run {self.id}: the catalogue refused {len(refusals)} line(s):\n  " + "\n  ".join(refusals))

    def _send(self, line):
        self._require_running()
        self._raise_refusals()
        if self._process is None:
            self._start_stream()
        if self._process.poll() is not None:
            raise TrackingError(f"run {self.id}: the sekit runs log process ended (status {self._process.returncode})")
        try:
            self._process.stdin.write(json.dumps(line) + "\n")
            self._process.stdin.flush()
        except BrokenPipeError:
            raise TrackingError(f"run {self.id}: the sekit runs log process ended (its pipe is closed)") from None
        with self._condition:
            self._sent += 1

    def _close_stream(self):
        if self._process is None:
            return
        process, self._process = self._process, None
        try:
            process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            status = process.wait(timeout=_STREAM_EXIT_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            raise TrackingError(f"run {self.id}: the sekit runs log process did not end within "
                                f"{_STREAM_EXIT_TIMEOUT_SECONDS} s of the end of its input; killed") from None
        self._reader.join()
        process.stdout.close()
        with self._condition:
            unanswered = self._sent - self._answered
        # Status 1 is the stream's answer to refused lines, which are raised as such.
        if status not in (0, 1) or unanswered > 0 or (status == 1 and not self._refused):
            raise TrackingError(f"run {self.id}: the sekit runs log process ended with status {status}, "
                                f"{unanswered} line(s) unanswered")
