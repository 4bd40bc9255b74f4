"""The catalogue read back from Python: runs, parameters, tags, per-step metrics, clips and per-clip
scores, as pandas DataFrames (when pandas is importable) or lists of dicts.

    import sekit.catalog
    sekit.catalog.runs(kind="train")                  # id, kind, name, status, started_at, ...
    sekit.catalog.metrics("crnn-a")                   # run_id, key, step, value, time
    sekit.catalog.scores("epoch-40")                  # run_id, clip_id, metric, value, noisy_value, error
    sekit.catalog.aggregates("epoch-40")              # run_id, metric, subset, mean, std, ci95_low, ...
    sekit.catalog.corpora()                           # identity, name, path, spec_sha256, recorded_at, mix_runs
    sekit.catalog.score_targets("epoch-40")           # run_id, corpus, folder, scored, enhanced_folder, ...

Read-only: SQLite is opened with ``mode=ro``, so nothing is written, not even a migration. Only the
versioned views ``sekit_v1_*`` are read (``VIEWS``), never the tables: they keep their columns when the
tables change. ``catalog``
is a path; None means the binary's default (``$SEKIT_CATALOG``, else ``experiments/catalog.sqlite``
under the current folder). ``run`` is a run id (or a ``sekit.tracking.Run``); a name or a unique id
prefix is resolved by the ``sekit`` binary (``$SEKIT_BINARY``, else ``sekit`` on ``PATH``), by the same
rules as every ``sekit runs`` command. ``as_frame``: True for a DataFrame, False for a list of dicts,
None (default) for a DataFrame when pandas is importable. Times are UTC ``datetime`` values. See
docs/tracking.md.
"""

import datetime
import json
import os
import shutil
import sqlite3
import subprocess
import urllib.parse

__all__ = ["CatalogError", "VIEWS", "aggregates", "clips", "connect", "corpora", "default_path", "metrics", "params", "runs",
           "score_targets", "scores", "tags"]


#: The versioned views of the catalogue this package reads (never its tables): migration
#: ``v6-python-views`` creates them; their columns keep their meaning across schema changes.
VIEWS = ("sekit_v1_runs", "sekit_v1_params", "sekit_v1_run_tags", "sekit_v1_step_metrics", "sekit_v1_clips",
         "sekit_v1_clip_scores", "sekit_v1_run_metrics")


class CatalogError(RuntimeError):
    """No catalogue, a catalogue without the views this package reads, or a run reference that names no run."""


def default_path():
    """The catalogue the binary uses by default: ``$SEKIT_CATALOG``, else ``experiments/catalog.sqlite``
    under the current folder."""
    return os.path.abspath(os.environ.get("SEKIT_CATALOG") or os.path.join("experiments", "catalog.sqlite"))


def connect(catalog=None):
    """A read-only ``sqlite3.Connection`` to the catalogue (``mode=ro``).

    Raises:
        CatalogError: no file at the path.
    """
    path = os.path.abspath(os.fspath(catalog)) if catalog is not None else default_path()
    if not os.path.isfile(path):
        raise CatalogError(f"{path}: no catalogue here")
    return sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True)


def runs(catalog=None, kind=None, as_frame=None):
    """Every run (of ``kind``), newest first: id, kind, name, status, started_at, finished_at,
    parent_id, tool_version, host, pid, command_line, error."""
    sql = ("SELECT id, kind, name, status, started_at, finished_at, parent_id, tool_version, host, pid, command_line, error "
           "FROM sekit_v1_runs" + (" WHERE kind = ?" if kind else "") + " ORDER BY started_at DESC, id")
    return _query(catalog, sql, [kind] if kind else [], as_frame, times=("started_at", "finished_at"))


def params(run=None, catalog=None, as_frame=None):
    """Parameters of ``run`` (None: of every run): run_id, key, value (a number when it spells one)."""
    with _open(catalog) as (connection, path):
        where, arguments = _run_condition(run, connection, path)
        sql = f"SELECT run_id, key, value, value_number FROM sekit_v1_params{where} ORDER BY run_id, key"
        return _rows(connection, sql, arguments, as_frame, numbers=("value", "value_number"))


def tags(run=None, catalog=None, as_frame=None):
    """Tags of ``run`` (None: of every run): run_id, key, value."""
    with _open(catalog) as (connection, path):
        where, arguments = _run_condition(run, connection, path)
        return _rows(connection, f"SELECT run_id, key, value FROM sekit_v1_run_tags{where} ORDER BY run_id, key", arguments, as_frame)


def metrics(run, catalog=None, as_frame=None):
    """The per-step metrics of ``run``, by key and step: run_id, key, step, value, time."""
    with _open(catalog) as (connection, path):
        where, arguments = _run_condition(run, connection, path)
        sql = f"SELECT run_id, key, step, value, time FROM sekit_v1_step_metrics{where} ORDER BY key, step"
        return _rows(connection, sql, arguments, as_frame, times=("time",))


def clips(run=None, catalog=None, as_frame=None):
    """The clips of ``run`` (None: of every run), by run and index: every column of ``sekit_v1_clips``."""
    with _open(catalog) as (connection, path):
        where, arguments = _run_condition(run, connection, path)
        return _rows(connection, f"SELECT * FROM sekit_v1_clips{where} ORDER BY run_id, clip_index", arguments, as_frame)


def scores(run, catalog=None, as_frame=None):
    """The per-clip scores of the score run ``run``: run_id, clip_id, metric, value, noisy_value, error."""
    with _open(catalog) as (connection, path):
        where, arguments = _run_condition(run, connection, path)
        sql = f"SELECT run_id, clip_id, metric, value, noisy_value, error FROM sekit_v1_clip_scores{where} ORDER BY clip_id, metric"
        return _rows(connection, sql, arguments, as_frame)


def aggregates(run=None, catalog=None, as_frame=None):
    """The stored aggregates of the score run ``run`` (None: of every run), by run, metric and subset:
    run_id, metric, subset (empty: all clips; ``snr=[0,5)``, ``split=test``, ...), mean, std, ci95_low,
    ci95_high, n. The interval is None for one clip."""
    with _open(catalog) as (connection, path):
        where, arguments = _run_condition(run, connection, path)
        sql = ("SELECT run_id, metric, subset, mean, std, CASE WHEN n < 2 THEN NULL ELSE ci95_low END AS ci95_low, "
               "CASE WHEN n < 2 THEN NULL ELSE ci95_high END AS ci95_high, n "
               f"FROM sekit_v1_run_metrics{where} ORDER BY run_id, metric, subset")
        return _rows(connection, sql, arguments, as_frame)


def corpora(catalog=None, as_frame=None):
    """The mixed corpora the catalogue knows (schema ``v7-corpora``), by identity: identity (the SHA-256 of
    the corpus's ``mix.json`` and manifests: a moved or copied folder is the same corpus), name, path (where
    it was last seen), spec_sha256, recorded_at, mix_runs (the ids of the mix runs that made it,
    comma-separated, in order)."""
    with _open(catalog, views=("sekit_v1_corpora", "sekit_v1_corpus_mix_runs")) as (connection, _):
        sql = ("SELECT c.identity, c.name, c.path, c.spec_sha256, c.recorded_at, "
               "(SELECT group_concat(mix_run_id, ',') FROM (SELECT mix_run_id FROM sekit_v1_corpus_mix_runs m "
               "WHERE m.corpus = c.identity ORDER BY mix_run_id)) AS mix_runs "
               "FROM sekit_v1_corpora c ORDER BY c.recorded_at, c.identity")
        return _rows(connection, sql, (), as_frame, times=("recorded_at",))


def score_targets(run=None, catalog=None, as_frame=None):
    """What each score run scored (``run``: of that run only): run_id, corpus (the identity of the corpus
    scored, or None), folder (the folder of references when no corpus), scored (``noisy`` or ``enhanced``),
    enhanced_folder, enhance_run_id."""
    with _open(catalog, views=("sekit_v1_score_targets",)) as (connection, path):
        where, arguments = _run_condition(run, connection, path)
        sql = ("SELECT run_id, corpus, folder, scored, enhanced_folder, enhance_run_id "
               f"FROM sekit_v1_score_targets{where} ORDER BY run_id")
        return _rows(connection, sql, arguments, as_frame)


# Helpers.

class _open:
    """``with _open(catalog) as (connection, path)``: a read-only connection to a catalogue that has the
    views this package reads (``VIEWS``), closed after."""

    def __init__(self, catalog, views=()):
        self.path = os.path.abspath(os.fspath(catalog)) if catalog is not None else default_path()
        self.views = VIEWS + tuple(views)

    def __enter__(self):
        self.connection = connect(self.path)
        try:
            present = {name for (name,) in self.connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE 'sekit_v1_%'")}
            missing = [view for view in self.views if view not in present]
            if missing:
                raise CatalogError(f"{self.path}: the catalogue has no view {missing[0]} (an older schema); "
                                   "a sekit command that writes to it (sekit catalog check) migrates it")
        except sqlite3.DatabaseError as error:
            self.connection.close()
            raise CatalogError(f"{self.path}: not a catalogue SQLite can read ({error})") from error
        except BaseException:
            self.connection.close()
            raise
        return self.connection, self.path

    def __exit__(self, *exception):
        self.connection.close()
        return False


def _query(catalog, sql, arguments, as_frame, times=()):
    with _open(catalog) as (connection, _):
        return _rows(connection, sql, arguments, as_frame, times)


def _run_condition(run, connection, path):
    if run is None:
        return "", []
    return " WHERE run_id = ?", [_resolve(run, connection, path)]


def _resolve(run, connection, path):
    """The id of the run ``run`` names: an id as it is; a name or id prefix through ``sekit runs show``."""
    reference = str(getattr(run, "id", run))
    if connection.execute("SELECT 1 FROM sekit_v1_runs WHERE id = ?", [reference]).fetchone():
        return reference
    binary = os.environ.get("SEKIT_BINARY") or shutil.which("sekit")
    if not binary:
        raise CatalogError(f"{path}: {reference!r} is no run id; names and id prefixes are resolved by the sekit binary: "
                           "set SEKIT_BINARY or put sekit on PATH, or give the run's id")
    done = subprocess.run([binary, "runs", "show", reference, "--format", "json", "--catalog", path],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise CatalogError(done.stderr.strip().removeprefix("Error: "))
    return json.loads(done.stdout)["run"]["id"]


def _timestamp(text):
    if text is None:
        return None
    layout = "%Y-%m-%d %H:%M:%S.%f" if "." in text else "%Y-%m-%d %H:%M:%S"
    return datetime.datetime.strptime(text, layout).replace(tzinfo=datetime.timezone.utc)


def _number(text, number):
    """A parameter's value: an int when its text spells one, else its number, else its text."""
    if number is None:
        return text
    try:
        return int(text.strip())
    except ValueError:
        return number


def _rows(connection, sql, arguments, as_frame, times=(), numbers=None):
    """Rows as dicts, then a DataFrame unless ``as_frame`` is False (or pandas is missing and it is None).
    ``times``: text columns turned into datetimes; ``numbers``: (text column, number column) folded into
    the text column as ``_number`` says, the number column dropped."""
    cursor = connection.execute(sql, arguments)
    columns = [description[0] for description in cursor.description]
    records = [dict(zip(columns, row)) for row in cursor]
    for record in records:
        for column in times:
            record[column] = _timestamp(record[column])
        if numbers:
            record[numbers[0]] = _number(record[numbers[0]], record.pop(numbers[1]))
    if numbers:
        columns.remove(numbers[1])
    if as_frame is False:
        return records
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise
        return records
    return pandas.DataFrame.from_records(records, columns=columns)
