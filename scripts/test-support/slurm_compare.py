#!/usr/bin/env python3
"""Comparisons of a sharded (Slurm) SEKit pipeline with the single-process one, for
scripts/test-slurm.sh. Standard library only. Each subcommand exits 0 when the two agree,
1 with a description of the first differences otherwise, 2 on a usage or input error.

  slurm_compare.py catalog A.sqlite B.sqlite
      Every table of both catalogues, row-identical apart from what necessarily differs between
      two executions: run ids (replaced by KIND:NAME, numbered #2, #3... in start order when a
      kind and name repeat; also inside other text cells such as clip ids RUN/CLIP and params),
      other UUIDs, timestamps (columns ending in _at), hosts, pids and command lines, and what a
      fold cannot make equal because the sharded run wrote other files: the fold's own parameters
      (`folded_shards`, `folded_runs`), a features run's name and `out` (one file against N shard
      files), and the `mix-manifest` and `features-hdf5` artifacts (N shard manifests and files
      against one; the test compares their contents directly: `manifest`, `blanked`).
  slurm_compare.py dump A.sqlite
      The normalised dump the `catalog` comparison diffs.
  slurm_compare.py manifest MANIFEST.jsonl SHARD.jsonl...
      The union of the shard manifests' lines in clip-index order equals the unsharded manifest,
      byte for byte, line for line.
  slurm_compare.py blanked A B
      The two files are byte-identical once every UUID (36 characters) is blanked in both.
  slurm_compare.py json A.json B.json
      The two JSON documents are equal once UUIDs and timestamps are blanked.
"""
import difflib
import json
import re
import sqlite3
import sys

UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
UUID_BYTES = re.compile(rb"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?")
IGNORED_RUN_COLUMNS = {"host", "pid", "command_line"}


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def open_catalog(path):
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.execute("select count(*) from runs").fetchone()
        return db
    except sqlite3.Error as error:
        fail(f"slurm_compare: {path}: not a SEKit catalogue ({error})")


# Rows that differ between a folded sharded run and a single-process run by construction.
FOLD_PARAMS = {"folded_shards", "folded_runs"}
PER_SHARD_ARTIFACTS = {"mix-manifest", "features-hdf5"}


def run_labels(db):
    """Run id -> KIND:NAME (#k when a kind and name repeat, in start order; features runs by kind,
    their name being their output file's)."""
    rows = db.execute("select id, kind, name, started_at from runs order by started_at, id").fetchall()
    seen = {}
    labels = {}
    for run_id, kind, name, _ in rows:
        base = kind if kind == "features" else f"{kind}:{name}"
        seen[base] = seen.get(base, 0) + 1
        labels[run_id] = base if seen[base] == 1 else f"{base}#{seen[base]}"
    return labels


def normalise(value, labels):
    if not isinstance(value, str):
        return repr(value)
    for run_id, label in labels.items():
        if run_id in value:
            value = value.replace(run_id, f"<run {label}>")
    value = UUID.sub("<uuid>", value)
    return value


def dump(path):
    db = open_catalog(path)
    labels = run_labels(db)
    tables = [name for (name,) in db.execute(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")]
    lines = []
    for table in tables:
        columns = [row[1] for row in db.execute(f'pragma table_info("{table}")')]
        kept = [c for c in columns if not c.endswith("_at") and not (table == "runs" and c in IGNORED_RUN_COLUMNS)]
        rows = []
        kinds = dict(db.execute("select id, kind from runs").fetchall())
        for row in db.execute(f'select * from "{table}"'):
            record = dict(zip(columns, row))
            if table == "artifacts" and record.get("kind") in PER_SHARD_ARTIFACTS:
                continue
            if table == "params" and (record["key"] in FOLD_PARAMS
                                      or (record["key"] == "out" and kinds.get(record["run_id"]) == "features")):
                continue
            if table == "runs" and record["kind"] == "features":
                record["name"] = "<features file name>"
            rows.append("|".join(f"{c}={normalise(record[c], labels)}" for c in kept))
        lines.append(f"== {table} ({len(rows)} rows)")
        lines.extend(f"{table}: {row}" for row in sorted(rows))
    return lines


def compare_catalogs(a, b):
    left, right = dump(a), dump(b)
    if left == right:
        print(f"catalogues agree ({sum(1 for l in left if not l.startswith('=='))} rows)")
        return 0
    print(f"catalogues differ: {a} against {b} (normalised rows; - only in the first, + only in the second):")
    diff = list(difflib.unified_diff(left, right, a, b, lineterm="", n=0))
    for line in diff[:80]:
        print("  " + line)
    if len(diff) > 80:
        print(f"  ... {len(diff) - 80} more diff lines")
    return 1


def compare_manifests(whole, shards):
    def lines(path):
        try:
            with open(path, "rb") as f:
                return [line for line in f.read().split(b"\n") if line]
        except OSError as error:
            fail(f"slurm_compare: {path}: {error.strerror}")

    expected = lines(whole)
    union = []
    for shard in shards:
        for line in lines(shard):
            try:
                index = json.loads(line)["index"]
            except (ValueError, KeyError):
                print(f"{shard}: a line is not a manifest record: {line[:120]!r}")
                return 1
            union.append((index, line))
    union.sort(key=lambda item: item[0])
    indices = [index for index, _ in union]
    if len(set(indices)) != len(indices):
        print(f"shard manifests repeat clip indices: {sorted(i for i in set(indices) if indices.count(i) > 1)}")
        return 1
    got = [line for _, line in union]
    if got == expected:
        print(f"manifests agree ({len(expected)} clips in {len(shards)} shard manifests)")
        return 0
    print(f"manifests differ: {len(got)} lines in the shards, {len(expected)} in {whole}")
    for k, (x, y) in enumerate(zip(expected, got)):
        if x != y:
            print(f"  first difference at line {k + 1}:\n    unsharded: {x[:300]!r}\n    shards:    {y[:300]!r}")
            break
    return 1


def compare_blanked(a, b):
    try:
        with open(a, "rb") as f:
            left = f.read()
        with open(b, "rb") as f:
            right = f.read()
    except OSError as error:
        fail(f"slurm_compare: {error.filename}: {error.strerror}")
    blanked_left = UUID_BYTES.sub(b"0" * 36, left)
    blanked_right = UUID_BYTES.sub(b"0" * 36, right)
    if blanked_left == blanked_right:
        print(f"files agree with run ids blanked ({len(left)} bytes, {len(UUID_BYTES.findall(left))} UUIDs)")
        return 0
    if len(left) != len(right):
        print(f"{a} has {len(left)} bytes, {b} {len(right)}")
    first = next((k for k, (x, y) in enumerate(zip(blanked_left, blanked_right)) if x != y), min(len(left), len(right)))
    count = sum(1 for x, y in zip(blanked_left, blanked_right) if x != y)
    print(f"files differ beyond run ids: first at byte {first}, {count} bytes differ "
          f"({len(UUID_BYTES.findall(left))} and {len(UUID_BYTES.findall(right))} UUIDs blanked)")
    return 1


def blank_json(value):
    if isinstance(value, dict):
        return {key: blank_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [blank_json(item) for item in value]
    if isinstance(value, str):
        return TIMESTAMP.sub("<time>", UUID.sub("<uuid>", value))
    return value


def compare_json(a, b):
    def load(path):
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except OSError as error:
            fail(f"slurm_compare: {path}: {error.strerror}")
        except ValueError as error:
            print(f"{path} is not JSON: {error}")
            sys.exit(1)

    left = json.dumps(blank_json(load(a)), indent=1, sort_keys=True).splitlines()
    right = json.dumps(blank_json(load(b)), indent=1, sort_keys=True).splitlines()
    if left == right:
        print("JSON documents agree (run ids and times blanked)")
        return 0
    print(f"JSON documents differ: {a} against {b}:")
    for line in list(difflib.unified_diff(left, right, a, b, lineterm="", n=1))[:60]:
        print("  " + line)
    return 1


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    command, args = argv[1], argv[2:]
    if command == "catalog" and len(args) == 2:
        return compare_catalogs(*args)
    if command == "dump" and len(args) == 1:
        print("\n".join(dump(args[0])))
        return 0
    if command == "manifest" and len(args) >= 2:
        return compare_manifests(args[0], args[1:])
    if command == "blanked" and len(args) == 2:
        return compare_blanked(*args)
    if command == "json" and len(args) == 2:
        return compare_json(*args)
    fail(f"slurm_compare: bad arguments {argv[1:]}; see --help")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
