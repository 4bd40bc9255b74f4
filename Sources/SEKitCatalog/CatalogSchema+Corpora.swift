import GRDB

extension CatalogSchema {
    /// Version 7: corpora and what a score run scored, as records.
    ///
    /// - `corpora`: one row per mixed corpus, keyed by its ``CorpusIdentity`` (the hash of its
    ///   `mix.json` and manifests, so a moved or copied folder is the same corpus): its name, the
    ///   folder it was last seen in, the SHA-256 of its `mix.json` (NULL for a corpus recorded by this
    ///   migration whose files were gone or had changed: its identity is then derived from its mix runs).
    /// - `corpus_mix_runs`: the mix runs (one per shard) that made a corpus. Not a foreign key: a corpus
    ///   mixed into another catalogue names mix runs this one does not hold.
    /// - `score_targets`: one row per score run: the test set it scored, a corpus (`corpus`) or a folder
    ///   of references or of a corpus without `mix.json` (`folder`; both NULL: outputs scored without a
    ///   reference), and what it scored of it: `noisy` (the corpus's noisy input) or `enhanced` (the
    ///   outputs in `enhanced_folder`, written by `enhance_run_id` when this catalogue holds that run).
    ///
    /// With the views `sekit_v1_corpora`, `sekit_v1_corpus_mix_runs` and `sekit_v1_score_targets` (the
    /// same columns), for the Python package. Literal SQL, frozen once shipped; the rows of earlier
    /// runs are filled in by ``backfillCorpora(_:)``.
    package static func createCorpora(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE corpora (
                identity TEXT PRIMARY KEY NOT NULL CHECK (length(identity) = 64),
                name TEXT NOT NULL CHECK (length(name) > 0),
                path TEXT NOT NULL CHECK (length(path) > 0),
                spec_sha256 TEXT CHECK (spec_sha256 IS NULL OR length(spec_sha256) = 64),
                recorded_at TEXT NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE corpus_mix_runs (
                corpus TEXT NOT NULL REFERENCES corpora(identity) ON DELETE CASCADE,
                mix_run_id TEXT NOT NULL CHECK (length(mix_run_id) > 0),
                PRIMARY KEY (corpus, mix_run_id)
            ) WITHOUT ROWID;
            CREATE INDEX corpus_mix_runs_run ON corpus_mix_runs(mix_run_id);

            CREATE TABLE score_targets (
                run_id TEXT PRIMARY KEY NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                corpus TEXT REFERENCES corpora(identity) ON DELETE RESTRICT,
                folder TEXT CHECK (folder IS NULL OR length(folder) > 0),
                scored TEXT NOT NULL CHECK (scored IN ('noisy', 'enhanced')),
                enhanced_folder TEXT CHECK (enhanced_folder IS NULL OR length(enhanced_folder) > 0),
                enhance_run_id TEXT REFERENCES runs(id) ON DELETE SET NULL,
                CHECK (corpus IS NULL OR folder IS NULL),
                CHECK ((scored = 'enhanced') = (enhanced_folder IS NOT NULL))
            ) WITHOUT ROWID;
            CREATE INDEX score_targets_corpus ON score_targets(corpus);

            CREATE VIEW sekit_v1_corpora AS
                SELECT identity, name, path, spec_sha256, recorded_at FROM corpora;
            CREATE VIEW sekit_v1_corpus_mix_runs AS
                SELECT corpus, mix_run_id FROM corpus_mix_runs;
            CREATE VIEW sekit_v1_score_targets AS
                SELECT run_id, corpus, folder, scored, enhanced_folder, enhance_run_id FROM score_targets;
            """)
    }
}
