"""Shared by the package's tests: the real `sekit` binary, the fixtures, and feature files made with them.

The binary is `$SEKIT_BINARY` (scripts/test.sh sets it to the debug build's); the fixtures are
`$SEKIT_FIXTURES`, else the clone's `datasets/fixtures` (they ship with it). A test that needs the
binary is skipped when it is missing, except under CI (`CI=true`), where it fails; an incomplete
fixtures folder is an error naming the folder and the missing files, never a skip.
"""

import atexit
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PACKAGE_FOLDER = os.path.join(ROOT, "experiments", "python")


def under_ci():
    value = os.environ.get("CI", "").lower()
    return value not in ("", "0", "false")


def require(condition, reason):
    """Skips the calling test when `condition` is false, or fails it under CI."""
    if condition:
        return
    if under_ci():
        raise AssertionError(f"{reason} (CI=true: required)")
    raise unittest.SkipTest(reason)


def sekit_binary():
    binary = os.environ.get("SEKIT_BINARY", "")
    require(binary and os.access(binary, os.X_OK),
            f"needs the sekit binary in $SEKIT_BINARY (got {binary!r}; scripts/test.sh sets it)")
    return binary


def fixtures():
    """The fixtures folder, checked against the clone's `datasets/fixtures/SHA256SUMS` (file names)."""
    folder = os.environ.get("SEKIT_FIXTURES") or os.path.join(ROOT, "datasets", "fixtures")
    with open(os.path.join(ROOT, "datasets", "fixtures", "SHA256SUMS")) as f:
        listed = [line.split()[1].lstrip("*") for line in f if line.strip()]
    missing = [name for name in listed if not os.path.isfile(os.path.join(folder, name))]
    if missing:
        raise AssertionError(f"the fixtures folder {folder} lacks {len(missing)} of its {len(listed)} files: "
                             f"{', '.join(missing[:8])}{' and more' if len(missing) > 8 else ''} "
                             f"(SEKIT_FIXTURES={os.environ.get('SEKIT_FIXTURES', 'unset')})")
    return folder


def sekit(*arguments, catalog=None, records=True):
    """Runs the binary (a command that `records` a run: into `catalog`, or none); returns its stdout.
    Raises AssertionError with its stderr when it fails."""
    command = [sekit_binary(), *arguments] + ([] if catalog or not records else ["--no-catalog"])
    environment = dict(os.environ, **({"SEKIT_CATALOG": catalog} if catalog else {}))
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout


_folder = None
_made = {}


def work_folder():
    """A temporary folder shared by this test process's feature files (removed at exit)."""
    global _folder
    if _folder is None:
        _folder = tempfile.mkdtemp(prefix="sekit-python-tests-")
        atexit.register(shutil.rmtree, _folder, True)
    return _folder


def corpus():
    """A corpus of 24 clips as long as their utterances (about 2-4 s) mixed from the fixtures (train
    12, valid 6, test 6), made once."""
    if "corpus" not in _made:
        out = os.path.join(work_folder(), "corpus")
        sources = fixtures()
        sekit("mix", "--speech", os.path.join(sources, "speech"), "--noise", os.path.join(sources, "noise"),
              "--count", "24", "--full-utterance", "--snr-db=-5:15", "--split", "train=0.5,valid=0.25,test=0.25",
              "--seed", "3", "--out", out)
        _made["corpus"] = out
    return _made["corpus"]


def features(name, *options, catalog=False):
    """The feature file `name`.h5 of corpus(), exported once with `options` (`sekit features ...`);
    with catalog=True the run is recorded (the file then carries a features_run_id)."""
    if name not in _made:
        out = os.path.join(work_folder(), f"{name}.h5")
        sekit("features", "--corpus", corpus(), "--out", out, *options,
              catalog=os.path.join(work_folder(), "catalog.sqlite") if catalog else None)
        _made[name] = out
    return _made[name]
