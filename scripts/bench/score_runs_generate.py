#!/usr/bin/env python3
"""Adds synthetic score runs to a SEKit catalogue holding one mix run (from catalog_generate.py).

Usage: score_runs_generate.py CATALOG.sqlite RUNS [METRICS]

Inserts RUNS finished score runs (checkpoints ckpt-00, ckpt-01, ...) whose parent is the mix run,
each scoring every clip of it on METRICS metrics (default snr,segsnr,sisdr,stoi,estoi): per-clip
values (seeded random numbers; checkpoint k is better than k-1 by a small amount), noisy values,
and the aggregates `sekit score` stores (overall, per requested SNR, per split; mean, std, a
Student-t 95% interval through scipy when present, else the normal one). Standard library only
besides the optional scipy.
"""
import hashlib
import math
import random
import sqlite3
import statistics
import sys
import uuid

try:
    from scipy.stats import t as student_t
except ImportError:  # the normal quantile is close enough for timing
    student_t = None


def interval(values):
    n = len(values)
    mean = statistics.fmean(values)
    std = statistics.stdev(values) if n > 1 else 0.0
    q = student_t.ppf(0.975, n - 1) if (student_t and n > 1) else 1.959964
    half = q * std / math.sqrt(n) if n > 1 else 0.0
    return mean, std, mean - half, mean + half, n


def main() -> None:
    path, runs = sys.argv[1], int(sys.argv[2])
    metrics = (sys.argv[3] if len(sys.argv) > 3 else "snr,segsnr,sisdr,stoi,estoi").split(",")
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys = ON")
    mix = db.execute("SELECT id FROM runs WHERE kind = 'mix' ORDER BY id LIMIT 1").fetchone()[0]
    clips = db.execute("SELECT id, snr_requested_db, split FROM clips WHERE run_id = ? ORDER BY clip_index", (mix,)).fetchall()
    rng = random.Random(20261123)
    base = {m: [rng.gauss(0.8 if m in ("stoi", "estoi") else 8.0, 0.1 if m in ("stoi", "estoi") else 4.0) for _ in clips] for m in metrics}
    # The corpus as SEKit records it (schema v7-corpora): a stand-in identity made by the mix run; each
    # score run's target says it scored a checkpoint's outputs on that corpus.
    identity = hashlib.sha256(f"sekit bench corpus {mix}".encode()).hexdigest()
    with db:
        db.execute("INSERT OR IGNORE INTO corpora (identity, name, path, spec_sha256, recorded_at) "
                   "VALUES (?, 'bench', '/bench/corpus', NULL, '2026-02-01 00:00:00.000')", (identity,))
        db.execute("INSERT OR IGNORE INTO corpus_mix_runs (corpus, mix_run_id) VALUES (?, ?)", (identity, mix))
        for k in range(runs):
            run_id = str(uuid.UUID(int=0x5C0E << 112 | k))
            db.execute(
                "INSERT INTO runs (id, kind, name, status, started_at, finished_at, tool_version, command_line,"
                " working_directory, host, pid, parent_id) VALUES (?, 'score', ?, 'finished', ?, ?, 'bench', ?, '/', 'bench', 1, ?)",
                (run_id, f"ckpt-{k:02d}", f"2026-02-01 00:{k:02d}:00.000", f"2026-02-01 00:{k:02d}:30.000",
                 f"sekit score --checkpoint ckpt-{k:02d}", mix))
            db.executemany("INSERT INTO params (run_id, key, value_text, value_number) VALUES (?, ?, ?, ?)",
                           [(run_id, "checkpoint", f"ckpt-{k:02d}", None), (run_id, "epoch", str(k), k),
                            (run_id, "enhanced", f"/bench/ckpt-{k:02d}", None), (run_id, "metrics", ",".join(metrics), None)])
            db.execute("INSERT INTO score_targets (run_id, corpus, folder, scored, enhanced_folder, enhance_run_id) "
                       "VALUES (?, ?, NULL, 'enhanced', ?, NULL)", (run_id, identity, f"/bench/ckpt-{k:02d}"))
            rows, series = [], {}
            for m in metrics:
                scale = 0.01 if m in ("stoi", "estoi") else 0.4
                for i, (clip_id, snr, split) in enumerate(clips):
                    noisy = base[m][i] - 3 * scale
                    value = base[m][i] + k * scale * 0.05 + rng.gauss(0, scale)
                    rows.append((run_id, clip_id, m, value, noisy))
                    for subset in ("", f"snr={snr:g}", f"split={split}"):
                        series.setdefault((m, subset), []).append(value)
                        series.setdefault((m + "_noisy", subset), []).append(noisy)
            db.executemany("INSERT INTO clip_scores (run_id, clip_id, metric, value, noisy_value) VALUES (?, ?, ?, ?, ?)", rows)
            db.executemany("INSERT INTO run_metrics (run_id, metric, subset, mean, std, ci95_low, ci95_high, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           [(run_id, m, subset, *interval(values)) for (m, subset), values in series.items()])
    db.execute("ANALYZE")
    db.close()
    print(f"{path}: {runs} score runs x {len(clips)} clips x {len(metrics)} metrics")


if __name__ == "__main__":
    main()
