import GRDB

extension CatalogSchema {
    /// Version 6: the `sekit_v1_*` views, the interface the `sekit` Python package (and any other
    /// reader outside SEKit) reads instead of the tables, so the tables can change shape without
    /// breaking it. Documented in docs/tracking.md ("Reading the catalogue from Python").
    ///
    /// Each view's name carries the version of its columns: a later schema change re-creates the
    /// `v1` views over the new tables with the same columns, meaning the same, and adds `v2` views
    /// for new shapes. Literal SQL, frozen since it shipped (`CatalogSchemaPinTests` pins it).
    /// - `sekit_v1_runs`: one row per run: id, kind, name, status, started_at, finished_at (UTC
    ///   `YYYY-MM-DD HH:MM:SS.SSS`), parent_id, tool_version, host, pid, command_line, error.
    /// - `sekit_v1_params`: run_id, key, value (text, as recorded), value_number (its number, or NULL).
    /// - `sekit_v1_run_tags`: run_id, key, value.
    /// - `sekit_v1_step_metrics`: run_id, key, step, value, time (per-step metrics of training runs).
    /// - `sekit_v1_clips`: the clips mixes and imports recorded, every column of a clip.
    /// - `sekit_v1_clip_scores`: run_id, clip_id, metric, value, noisy_value, error.
    /// - `sekit_v1_run_metrics`: a score run's aggregates: run_id, metric, subset (`''`: all clips),
    ///   mean, std, ci95_low, ci95_high, n.
    package static func createPythonViewsVersion1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE VIEW sekit_v1_runs AS
                SELECT id, kind, name, status, started_at, finished_at, parent_id, tool_version, host, pid, command_line, error
                FROM runs;
            CREATE VIEW sekit_v1_params AS
                SELECT run_id, key, value_text AS value, value_number FROM params;
            CREATE VIEW sekit_v1_run_tags AS
                SELECT run_id, key, value FROM run_tags;
            CREATE VIEW sekit_v1_step_metrics AS
                SELECT run_id, key, step, value, time FROM run_step_metrics;
            CREATE VIEW sekit_v1_clips AS
                SELECT id, run_id, clip_index, split, speech_source_id, speech_offset_seconds, rir_source_id,
                       snr_requested_db, snr_realised_db, level_dbfs, speech_gain, noise_gain, clipping_scale, seed,
                       sample_rate, duration_seconds, noisy_path, clean_path, noise_path
                FROM clips;
            CREATE VIEW sekit_v1_clip_scores AS
                SELECT run_id, clip_id, metric, value, noisy_value, error FROM clip_scores;
            CREATE VIEW sekit_v1_run_metrics AS
                SELECT run_id, metric, subset, mean, std, ci95_low, ci95_high, n FROM run_metrics;
            """)
    }
}
