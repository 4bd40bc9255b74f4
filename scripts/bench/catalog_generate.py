#!/usr/bin/env python3
"""Fills a SEKit catalogue (schema created by `sekit catalog import`) with synthetic mix runs and clips.

Usage: catalog_generate.py CATALOG.sqlite CLIPS [RUNS]

Inserts RUNS mix runs (default 4, one per shard) with parameters, then CLIPS clips spread over them
(split 70/15/15 train/valid/test by index, requested SNR -5..20 dB in 5 dB steps, realised SNR within
0.5 dB of it, one noise per clip), each referencing a speech and a noise source already imported.
Only the standard library is used; rows go through one recursive-CTE INSERT per table.
"""
import sqlite3
import sys
import uuid


def main() -> None:
    path, clips = sys.argv[1], int(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys = ON")
    speech = [r[0] for r in db.execute("SELECT id FROM sources WHERE kind = 'speech' ORDER BY id")]
    noise = [r[0] for r in db.execute("SELECT id FROM sources WHERE kind = 'noise' ORDER BY id")]
    if not speech or not noise:
        sys.exit(f"{path}: import speech and noise sources first")
    db.execute("CREATE TEMP TABLE speech_ids (n INTEGER PRIMARY KEY, id TEXT)")
    db.execute("CREATE TEMP TABLE noise_ids (n INTEGER PRIMARY KEY, id TEXT)")
    db.executemany("INSERT INTO speech_ids VALUES (?, ?)", enumerate(speech))
    db.executemany("INSERT INTO noise_ids VALUES (?, ?)", enumerate(noise))
    db.execute("CREATE TEMP TABLE run_ids (n INTEGER PRIMARY KEY, id TEXT)")
    with db:
        for shard in range(runs):
            run_id = str(uuid.UUID(int=0xBE7C << 112 | shard))
            db.execute("INSERT INTO run_ids VALUES (?, ?)", (shard, run_id))
            db.execute(
                "INSERT INTO runs (id, kind, name, status, started_at, finished_at, tool_version, command_line,"
                " working_directory, host, pid) VALUES (?, 'mix', 'bench', 'finished', '2026-01-01 00:00:00.000',"
                " '2026-01-01 01:00:00.000', 'bench', ?, '/', 'bench', 1)",
                (run_id, f"sekit mix --shard {shard}/{runs}"))
            db.executemany("INSERT INTO params (run_id, key, value_text, value_number) VALUES (?, ?, ?, ?)",
                           [(run_id, "shard", str(shard), shard), (run_id, "seed", "1234", 1234),
                            (run_id, "snr_db", "-5,0,5,10,15,20", None)])
        ns, nn = len(speech), len(noise)
        db.execute(f"""
            WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {clips})
            INSERT INTO clips (id, run_id, clip_index, split, speech_source_id, speech_offset_seconds,
                               snr_requested_db, snr_realised_db, level_dbfs, speech_gain, noise_gain,
                               clipping_scale, seed, sample_rate, duration_seconds, noisy_path, clean_path, noise_path)
            SELECT printf('bench-%08d', i), (SELECT id FROM run_ids WHERE n = i % {runs}), i,
                   CASE WHEN i % 20 < 14 THEN 'train' WHEN i % 20 < 17 THEN 'valid' ELSE 'test' END,
                   (SELECT id FROM speech_ids WHERE n = (i * 7919) % {ns}), (i % 13) * 0.25,
                   -5 + 5 * (i % 6), -5 + 5 * (i % 6) + ((i * 37) % 101 - 50) / 100.0,
                   -26 - (i % 11), 1.0, 0.1 + (i % 17) / 20.0,
                   CASE WHEN i % 97 = 0 THEN 0.9 ELSE 1 END, i * 2654435761 % 4294967296, 16000, 4.0,
                   printf('noisy/%08d.wav', i), printf('clean/%08d.wav', i), printf('noise/%08d.wav', i)
            FROM k""")
        db.execute(f"""
            INSERT INTO clip_noises (clip_id, position, source_id, offset_seconds, gain)
            SELECT id, 0, (SELECT id FROM noise_ids WHERE n = clip_index % {nn}), (clip_index % 29) * 0.5, noise_gain
            FROM clips WHERE id LIKE 'bench-%'""")
    db.execute("ANALYZE")
    db.close()
    print(f"{path}: {clips} clips in {runs} runs, {len(speech)} speech and {len(noise)} noise sources")


if __name__ == "__main__":
    main()
