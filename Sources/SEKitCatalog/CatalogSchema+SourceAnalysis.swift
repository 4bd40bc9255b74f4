import GRDB

extension CatalogSchema {
    /// Version 5: curated sources (`sekit catalog analyze`).
    ///
    /// - `analysed_corpora`: one row per analysed corpus: its name, the folder analysed, when, by which
    ///   SEKit, and the DNSMOS backend (package versions and model SHA-256s, as a score run records them;
    ///   NULL when DNSMOS was not run).
    /// - `source_analysis`: one row per file of the corpus, keyed by its path inside the folder: the
    ///   file's SHA-256 when analysed and its measures, named as the mix's `where` filter names them.
    ///   A file that could not be analysed has `error` set and NULL measures.
    ///
    /// Literal SQL, frozen once shipped.
    package static func createSourceAnalysis(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE analysed_corpora (
                name TEXT PRIMARY KEY NOT NULL CHECK (length(name) > 0),
                folder TEXT NOT NULL CHECK (length(folder) > 0),
                analysed_at TEXT NOT NULL,
                tool_version TEXT NOT NULL,
                dnsmos_backend TEXT
            ) WITHOUT ROWID;

            CREATE TABLE source_analysis (
                corpus TEXT NOT NULL REFERENCES analysed_corpora(name) ON DELETE CASCADE,
                relative_path TEXT NOT NULL CHECK (length(relative_path) > 0),
                path TEXT NOT NULL CHECK (length(path) > 0),
                sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                sample_rate INTEGER CHECK (sample_rate > 0),
                duration_seconds REAL CHECK (duration_seconds >= 0),
                bandwidth_hz REAL CHECK (bandwidth_hz >= 0),
                active_speech_ratio REAL CHECK (active_speech_ratio >= 0 AND active_speech_ratio <= 1),
                clipping_ratio REAL CHECK (clipping_ratio >= 0 AND clipping_ratio <= 1),
                dc_offset REAL,
                level_dbfs REAL,
                rms_dbfs REAL,
                dnsmos_sig REAL,
                dnsmos_bak REAL,
                dnsmos_ovrl REAL,
                error TEXT,
                analysed_at TEXT NOT NULL,
                PRIMARY KEY (corpus, relative_path)
            ) WITHOUT ROWID;
            CREATE INDEX source_analysis_path ON source_analysis(path);
            """)
    }
}
