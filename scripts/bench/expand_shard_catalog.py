#!/usr/bin/env python3
"""Grows a real shard catalogue (made by `sekit mix/score --shard i/N --catalog SHARD.sqlite`) to
CLIPS clips, for timing `sekit catalog merge` at scale.

Usage: expand_shard_catalog.py SHARD.sqlite CLIPS

The shard's own clips (indices i-1, i-1+N, ...) are the templates: clip number j of the grown shard
is template j mod T with clip index i-1 + j*N and id RUN/s<seed>-<index, 7 digits>; its noises,
degradations and every score row naming it are copied with it. Only the standard library is used;
rows go through INSERT ... SELECT over a recursive CTE, one statement per table.
"""
import re
import sqlite3
import sys


def main() -> None:
    path, target = sys.argv[1], int(sys.argv[2])
    db = sqlite3.connect(path)
    (mix_run, shard_text) = db.execute(
        "SELECT r.id, p.value_text FROM runs r JOIN params p ON p.run_id = r.id AND p.key = 'shard' WHERE r.kind = 'mix'").fetchone()
    shard, count = (int(x) for x in shard_text.split("/"))
    templates = [r[0] for r in db.execute("SELECT id FROM clips WHERE run_id = ? ORDER BY clip_index", (mix_run,))]
    prefix = re.match(r"^(.*/s\d+-)\d+$", templates[0]).group(1)
    db.execute("CREATE TEMP TABLE template (t INTEGER PRIMARY KEY, id TEXT NOT NULL)")
    db.executemany("INSERT INTO template VALUES (?, ?)", enumerate(templates))
    # new(j, template id, new index, new id) for the clips beyond the templates.
    db.execute(f"""CREATE TEMP TABLE grown AS WITH RECURSIVE j(n) AS (SELECT {len(templates)} UNION ALL SELECT n + 1 FROM j WHERE n + 1 < {target})
        SELECT n, (SELECT id FROM template WHERE t = n % {len(templates)}) AS old_id,
               {shard - 1} + n * {count} AS clip_index,
               '{prefix}' || printf('%07d', {shard - 1} + n * {count}) AS new_id FROM j""")
    db.execute("CREATE INDEX temp.grown_old ON grown(old_id)")

    def columns(table):
        return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]

    with db:
        for table, key in (("clips", "id"), ("clip_noises", "clip_id"), ("clip_degradations", "clip_id"),
                           ("clip_degradation_params", "clip_id"), ("clip_scores", "clip_id")):
            names = columns(table)
            values = ["g.new_id" if n == key else "g.clip_index" if n == "clip_index" else f"x.\"{n}\"" for n in names]
            db.execute(f"INSERT INTO {table} ({', '.join(chr(34) + n + chr(34) for n in names)}) "
                       f"SELECT {', '.join(values)} FROM grown g JOIN {table} x ON x.\"{key}\" = g.old_id")
    db.execute("VACUUM")
    print(f"{path}: {db.execute('SELECT count(*) FROM clips').fetchone()[0]} clips, "
          f"{db.execute('SELECT count(*) FROM clip_scores').fetchone()[0]} clip scores")


if __name__ == "__main__":
    main()
