import GRDB

extension CatalogSchema {
    /// Version 4: listening tests (`sekit listen import`).
    ///
    /// - `listening_tests`: one row per test (its name, kind, folder, seed and the stimuli hash of its
    ///   `test.json`).
    /// - `listening_stimuli`: what a rater heard: the trial (clip), the catalogue clip id, the condition
    ///   (a run's name, `anchor35`, `anchor70` or `reference`), its role (`test`, `gold`, `trap`), the
    ///   score run of the condition (NULL for anchors and references), the clip's requested SNR and the
    ///   file with its SHA-256.
    /// - `listening_raters`: one row per rater, with the results file, whether screening excluded the
    ///   rater and the rule that did.
    /// - `listening_ratings`: one score per rater, stimulus and scale (`mushra`, `acr`, `dcr`, `ccr`, or
    ///   P.835's `sig`, `bak`, `ovrl`), with the seconds the rater took.
    ///
    /// Literal SQL, frozen once shipped.
    package static func createListening(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE listening_tests (
                name TEXT PRIMARY KEY NOT NULL CHECK (length(name) > 0),
                kind TEXT NOT NULL CHECK (kind IN ('mushra', 'acr', 'dcr', 'ccr', 'p835')),
                folder TEXT NOT NULL,
                stimuli_hash TEXT NOT NULL CHECK (length(stimuli_hash) = 64),
                seed INTEGER NOT NULL,
                imported_at TEXT NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE listening_stimuli (
                test TEXT NOT NULL REFERENCES listening_tests(name) ON DELETE CASCADE,
                id TEXT NOT NULL CHECK (length(id) > 0),
                trial TEXT NOT NULL CHECK (length(trial) > 0),
                clip_id TEXT NOT NULL CHECK (length(clip_id) > 0),
                condition TEXT NOT NULL CHECK (length(condition) > 0),
                role TEXT NOT NULL CHECK (role IN ('test', 'gold', 'trap')),
                score_run_id TEXT,
                snr_db REAL,
                file TEXT NOT NULL,
                sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                PRIMARY KEY (test, id)
            ) WITHOUT ROWID;
            CREATE INDEX listening_stimuli_condition ON listening_stimuli(test, condition);

            CREATE TABLE listening_raters (
                test TEXT NOT NULL REFERENCES listening_tests(name) ON DELETE CASCADE,
                rater TEXT NOT NULL CHECK (length(rater) > 0),
                source TEXT NOT NULL,
                excluded INTEGER NOT NULL DEFAULT 0 CHECK (excluded IN (0, 1)),
                rule TEXT,
                CHECK ((excluded = 1) = (rule IS NOT NULL)),
                PRIMARY KEY (test, rater)
            ) WITHOUT ROWID;

            CREATE TABLE listening_ratings (
                test TEXT NOT NULL,
                rater TEXT NOT NULL,
                stimulus TEXT NOT NULL,
                scale TEXT NOT NULL CHECK (scale IN ('mushra', 'acr', 'dcr', 'ccr', 'sig', 'bak', 'ovrl')),
                score REAL NOT NULL CHECK (score BETWEEN -3 AND 100),
                time_seconds REAL CHECK (time_seconds IS NULL OR time_seconds >= 0),
                PRIMARY KEY (test, rater, stimulus, scale),
                FOREIGN KEY (test, rater) REFERENCES listening_raters(test, rater) ON DELETE CASCADE,
                FOREIGN KEY (test, stimulus) REFERENCES listening_stimuli(test, id) ON DELETE CASCADE
            ) WITHOUT ROWID;
            CREATE INDEX listening_ratings_stimulus ON listening_ratings(test, stimulus);
            """)
    }
}
