"""Shared by test_tracking and test_catalog: the real `sekit` binary (`$SEKIT_BINARY`), temporary
catalogues, and small WAV files to mix and score. A test that needs the binary is skipped when it is
missing, except under CI (`CI=true`), where it fails."""

import math
import os
import shutil
import sqlite3
import struct
import subprocess
import tempfile
import unittest
import wave


def under_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


def binary():
    path = os.environ.get("SEKIT_BINARY", "")
    if path and os.access(path, os.X_OK):
        return path
    reason = f"needs the sekit binary in $SEKIT_BINARY (got {path!r})"
    if under_ci():
        raise AssertionError(f"{reason} (CI=true: required)")
    raise unittest.SkipTest(reason)


def sekit(*arguments, catalog=None, check=True):
    """Runs the binary; returns the CompletedProcess (raises AssertionError when `check` and it fails)."""
    command = [binary(), *arguments] + (["--catalog", catalog] if catalog else [])
    done = subprocess.run(command, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done


def query(catalog, sql, arguments=()):
    """Rows of `sql` on the catalogue (a plain read, outside the code under test)."""
    connection = sqlite3.connect(catalog)
    try:
        return connection.execute(sql, arguments).fetchall()
    finally:
        connection.close()


def write_wav(path, seconds=1.0, frequency_hz=440.0, sample_rate=16000, amplitude=0.3):
    """A mono 16-bit sine WAV."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    frames = int(seconds * sample_rate)
    samples = (int(amplitude * 32767 * math.sin(2 * math.pi * frequency_hz * i / sample_rate)) for i in range(frames))
    with wave.open(path, "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(sample_rate)
        f.writeframes(b"".join(struct.pack("<h", sample) for sample in samples))


class FolderTestCase(unittest.TestCase):
    """A temporary folder per test (`self.folder`), the binary in `self.binary`, the catalogue path in
    `self.catalog`."""

    def setUp(self):
        self.binary = binary()
        self.folder = tempfile.mkdtemp(prefix="sekit-tracking-tests-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.catalog = os.path.join(self.folder, "catalog.sqlite")

    def path(self, *parts):
        return os.path.join(self.folder, *parts)
