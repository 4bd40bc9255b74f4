import GRDB

/// The catalogue's schema as a list of named, append-only migrations.
///
/// A migration is never modified once it has shipped: a change to the schema is a new
/// migration appended to ``migrator``. Tables are written with string names so that a
/// migration keeps meaning what it meant when it shipped, whatever the record types become.
/// Integrity lives in the schema: NOT NULL, foreign keys and CHECK constraints.
public enum CatalogSchema {
    /// SQLite `application_id` stamped on every catalogue ("SEKT"), so `file(1)`-style tools
    /// and SEKit itself can tell a catalogue from another SQLite database.
    public static let applicationID: Int32 = 0x5345_4B54

    /// Migration identifiers, oldest first. `PRAGMA user_version` holds how many are applied.
    public static var migrationIdentifiers: [String] { migrator.migrations }

    /// Secondary indexes of the per-clip tables that a bulk build (a merge into a new catalogue)
    /// creates at the end instead of updating them row by row: nothing the merge itself queries
    /// (keys, `clips_run_index`) is among them.
    package static let bulkDeferredIndexes = ["clips_split_snr", "clips_snr_realised", "clips_snr_requested", "clips_speech_source",
                                      "clip_noises_source", "clip_scores_clip", "clip_degradations_kind",
                                      "clip_degradation_params_key_number"]

    /// The migrator holding every schema version.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-catalog") { db in
            try createVersion1(db)
        }
        migrator.registerMigration("v2-clip-degradations") { db in
            try createClipDegradations(db)
        }
        // Rebuilds `runs` (its kind CHECK): GRDB runs it with foreign keys off and checks them all before committing.
        migrator.registerMigration("v3-tracking", foreignKeyChecks: .deferred) { db in
            try createTracking(db)
        }
        migrator.registerMigration("v4-listening") { db in
            try createListening(db)
        }
        migrator.registerMigration("v5-source-analysis") { db in
            try createSourceAnalysis(db)
        }
        migrator.registerMigration("v6-python-views") { db in
            try createPythonViewsVersion1(db)
        }
        migrator.registerMigration("v7-corpora") { db in
            try createCorpora(db)
            try backfillCorpora(db)
        }
        return migrator
    }

    /// Version 1: sources, runs, params, clips, clip_noises, artifacts, clip_scores, run_metrics.
    ///
    /// Literal SQL, frozen since it shipped: nothing is interpolated, so no Swift constant can
    /// change what it creates (`CatalogSchemaPinTests` pins the resulting `sqlite_master`). The
    /// `runs.kind` CHECK lists the ``RunKind`` cases of v1; a new kind needs a new migration.
    package static func createVersion1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE runs (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
                kind TEXT NOT NULL CHECK (kind IN ('import','mix','features','synthesize','enhance','score','report','other')),
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
            CREATE INDEX runs_kind_started ON runs(kind, started_at);
            CREATE INDEX runs_status ON runs(status);
            CREATE INDEX runs_parent ON runs(parent_id);

            CREATE TABLE params (
                run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                key TEXT NOT NULL CHECK (length(key) > 0),
                value_text TEXT NOT NULL,
                value_number REAL,
                PRIMARY KEY (run_id, key)
            );
            CREATE INDEX params_key_number ON params(key, value_number);
            CREATE INDEX params_key_text ON params(key, value_text);

            CREATE TABLE sources (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
                kind TEXT NOT NULL CHECK (kind IN ('speech', 'noise', 'rir')),
                corpus TEXT NOT NULL CHECK (length(corpus) > 0),
                path TEXT NOT NULL CHECK (length(path) > 0),
                relative_path TEXT NOT NULL,
                sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                bytes INTEGER NOT NULL CHECK (bytes > 0),
                modified_at TEXT NOT NULL,
                format TEXT NOT NULL,
                encoding TEXT NOT NULL,
                sample_rate INTEGER NOT NULL CHECK (sample_rate > 0),
                channels INTEGER NOT NULL CHECK (channels > 0),
                frames INTEGER NOT NULL CHECK (frames >= 0),
                duration_seconds REAL NOT NULL CHECK (duration_seconds >= 0),
                speaker TEXT,
                import_run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE RESTRICT
            );
            CREATE INDEX sources_corpus_kind ON sources(corpus, kind);
            CREATE INDEX sources_path ON sources(path);
            CREATE INDEX sources_sha256 ON sources(sha256);

            CREATE TABLE clips (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
                run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                clip_index INTEGER NOT NULL CHECK (clip_index >= 0),
                split TEXT NOT NULL CHECK (length(split) > 0),
                speech_source_id TEXT REFERENCES sources(id) ON DELETE RESTRICT,
                speech_offset_seconds REAL CHECK (speech_offset_seconds >= 0),
                rir_source_id TEXT REFERENCES sources(id) ON DELETE RESTRICT,
                snr_requested_db REAL,
                snr_realised_db REAL,
                level_dbfs REAL CHECK (level_dbfs <= 0),
                speech_gain REAL CHECK (speech_gain >= 0),
                noise_gain REAL CHECK (noise_gain >= 0),
                clipping_scale REAL NOT NULL DEFAULT 1 CHECK (clipping_scale > 0 AND clipping_scale <= 1),
                seed INTEGER NOT NULL,
                sample_rate INTEGER NOT NULL CHECK (sample_rate > 0),
                duration_seconds REAL NOT NULL CHECK (duration_seconds > 0),
                noisy_path TEXT,
                clean_path TEXT,
                noise_path TEXT
            );
            CREATE INDEX clips_run_index ON clips(run_id, clip_index);
            CREATE INDEX clips_split_snr ON clips(split, snr_realised_db);
            CREATE INDEX clips_snr_realised ON clips(snr_realised_db);
            CREATE INDEX clips_snr_requested ON clips(snr_requested_db);
            CREATE INDEX clips_speech_source ON clips(speech_source_id);

            CREATE TABLE clip_noises (
                clip_id TEXT NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
                position INTEGER NOT NULL CHECK (position >= 0),
                source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE RESTRICT,
                offset_seconds REAL NOT NULL CHECK (offset_seconds >= 0),
                gain REAL CHECK (gain >= 0),
                PRIMARY KEY (clip_id, position)
            ) WITHOUT ROWID;
            CREATE INDEX clip_noises_source ON clip_noises(source_id);

            CREATE TABLE artifacts (
                run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                path TEXT NOT NULL CHECK (length(path) > 0),
                kind TEXT NOT NULL CHECK (length(kind) > 0),
                sha256 TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
                bytes INTEGER CHECK (bytes >= 0),
                created_at TEXT NOT NULL,
                PRIMARY KEY (run_id, path)
            );

            CREATE TABLE clip_scores (
                run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                clip_id TEXT NOT NULL CHECK (length(clip_id) > 0),
                metric TEXT NOT NULL CHECK (length(metric) > 0),
                value REAL,
                noisy_value REAL,
                error TEXT,
                CHECK (value IS NOT NULL OR error IS NOT NULL),
                PRIMARY KEY (run_id, clip_id, metric)
            );
            CREATE INDEX clip_scores_clip ON clip_scores(clip_id, metric);

            CREATE TABLE run_metrics (
                run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                metric TEXT NOT NULL CHECK (length(metric) > 0),
                subset TEXT NOT NULL DEFAULT '',
                mean REAL NOT NULL,
                std REAL CHECK (std >= 0),
                ci95_low REAL,
                ci95_high REAL,
                n INTEGER NOT NULL CHECK (n >= 1),
                CHECK (ci95_low IS NULL OR ci95_high IS NULL OR ci95_low <= ci95_high),
                PRIMARY KEY (run_id, metric, subset)
            );
            CREATE INDEX run_metrics_metric ON run_metrics(metric, subset, mean);
            """)
    }

    /// Version 2: `clip_degradations` (one row per degradation of a clip's noisy input, in the order
    /// applied: its stage and kind, `mp3` or `packet-loss`) and `clip_degradation_params` (its
    /// parameters by name, text and number, like `params`). Literal SQL, frozen once shipped.
    package static func createClipDegradations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE clip_degradations (
                clip_id TEXT NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
                position INTEGER NOT NULL CHECK (position >= 0),
                stage TEXT NOT NULL CHECK (stage IN ('bandwidth', 'codec', 'packet-loss', 'clip-distortion')),
                kind TEXT NOT NULL CHECK (length(kind) > 0),
                PRIMARY KEY (clip_id, position)
            ) WITHOUT ROWID;
            CREATE INDEX clip_degradations_kind ON clip_degradations(kind, clip_id);

            CREATE TABLE clip_degradation_params (
                clip_id TEXT NOT NULL,
                position INTEGER NOT NULL CHECK (position >= 0),
                key TEXT NOT NULL CHECK (length(key) > 0),
                value_text TEXT NOT NULL,
                value_number REAL,
                PRIMARY KEY (clip_id, key),
                FOREIGN KEY (clip_id, position) REFERENCES clip_degradations(clip_id, position) ON DELETE CASCADE
            ) WITHOUT ROWID;
            CREATE INDEX clip_degradation_params_key_number ON clip_degradation_params(key, value_number);
            """)
    }
}
