import GRDB

extension CatalogSchema {
    /// Version 3: runs made elsewhere (a training script through `sekit runs start`, `sekit.tracking`).
    ///
    /// - `run_step_metrics`: per-step metrics (run, key, step, value, time), one value per key and step;
    ///   values are finite (the CHECK refuses NaN, which SQLite stores as NULL, and ±inf).
    /// - `run_tags`: mutable labels of a run (run, key, value), unlike its parameters.
    /// - `runs` is rebuilt with the kind `train` added to its CHECK list (SQLite cannot alter a CHECK):
    ///   the new table is filled with every row, the old one dropped and the new one renamed, and its
    ///   three indexes are created again. The tables referring to `runs` name it, not the old table,
    ///   so their foreign keys hold (GRDB checks them before the migration commits).
    ///
    /// The new tables are created first: a second process migrating the same fresh file at the same
    /// time fails on them at once (and retries, finding the work done) before touching `runs`.
    /// Literal SQL, frozen once shipped.
    package static func createTracking(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE run_step_metrics (
                run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                key TEXT NOT NULL CHECK (length(key) > 0),
                step INTEGER NOT NULL CHECK (step >= 0),
                value REAL NOT NULL CHECK (value BETWEEN -1.7976931348623157e308 AND 1.7976931348623157e308),
                time TEXT NOT NULL,
                PRIMARY KEY (run_id, key, step)
            ) WITHOUT ROWID;

            CREATE TABLE run_tags (
                run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                key TEXT NOT NULL CHECK (length(key) > 0),
                value TEXT NOT NULL,
                PRIMARY KEY (run_id, key)
            ) WITHOUT ROWID;
            CREATE INDEX run_tags_key_value ON run_tags(key, value);

            CREATE TABLE runs_v3 (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
                kind TEXT NOT NULL CHECK (kind IN ('import','mix','features','synthesize','enhance','score','report','other','train')),
                name TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'failed')),
                started_at TEXT NOT NULL,
                finished_at TEXT,
                tool_version TEXT NOT NULL,
                command_line TEXT NOT NULL,
                working_directory TEXT NOT NULL,
                host TEXT NOT NULL,
                pid INTEGER NOT NULL,
                parent_id TEXT REFERENCES runs(id) ON DELETE RESTRICT,
                error TEXT,
                CHECK ((status = 'running') = (finished_at IS NULL))
            );
            INSERT INTO runs_v3 (id, kind, name, status, started_at, finished_at, tool_version, command_line,
                                 working_directory, host, pid, parent_id, error)
                SELECT id, kind, name, status, started_at, finished_at, tool_version, command_line,
                       working_directory, host, pid, parent_id, error FROM runs;
            DROP TABLE runs;
            ALTER TABLE runs_v3 RENAME TO runs;
            CREATE INDEX runs_kind_started ON runs(kind, started_at);
            CREATE INDEX runs_status ON runs(status);
            CREATE INDEX runs_parent ON runs(parent_id);
            CREATE INDEX runs_name ON runs(name);
            """)
    }
}
