import Foundation

/// One table of the catalogue with what the commands that walk every table do with it: how
/// `catalog merge` copies its rows (``Merge``), what `catalog check` verifies (``Check``) and how
/// `runs export --table` writes it (``Export``). ``CatalogTable/all`` declares every table the
/// migrations create; `CatalogTableDeclarationTests` fails for a table of `sqlite_master` without a
/// declaration, so a table added later cannot be left out of a merge, a check or an export.
public struct CatalogTable: Sendable {
    /// The table's name in SQL.
    public let name: String
    public let merge: Merge
    /// What `catalog check` verifies of the table, besides SQLite's integrity and foreign-key checks,
    /// which cover every table.
    public let checks: [Check]
    public let export: Export

    /// How `catalog merge` copies the table. Tables are copied in ``CatalogTable/all``'s order (a row
    /// after the rows it refers to); an input row whose primary key OUT holds is not copied (OUT's
    /// row stays), after the conflicts below were resolved.
    public struct Merge: Sendable {
        /// Columns holding a run id: a folded shard run is mapped to the run it folds into.
        public var runIDColumns: [String] = []
        /// Columns holding a catalogue clip id (`RUN/CLIP`): a folded shard run's clips go under the folded run.
        public var clipIDColumns: [String] = []
        /// Columns holding a source id: re-pointed to the new id of a source renamed by `--on-conflict rename`.
        public var sourceIDColumns: [String] = []
        /// The column naming the run a row describes, when a folded shard run's own rows are left out
        /// (its run row, parameters and aggregates: the folded run has its own).
        public var foldedRunsOwnRows: String? = nil
        /// Which rows conflict: same key in OUT and the input, other content.
        public var conflict: Conflict = .none
        /// The row this one belongs to (`listening_stimuli.test` → `listening_tests`): when that row
        /// conflicted and OUT's was kept (`--on-conflict keep-first`), the input's rows under it are not copied.
        public var parent: (table: String, column: String)? = nil
    }

    /// What makes two rows with one key a conflict in a merge.
    public enum Conflict: Sendable {
        /// Rows of one key are the same row (a run's parameters, scores and aggregates are written once,
        /// by the run): OUT's is kept.
        case none
        /// Other values in `compared` (key `key`): listed, then resolved by `--on-conflict` (`error`
        /// refuses the input; `keep-first` keeps OUT's row and leaves out the input's rows under it;
        /// `rename` cannot rename this table's rows, so it refuses).
        case differing(key: [String], compared: [String])
        /// Sources, runs and clips: compared by rules of their own (``Catalog/merge(_:onConflict:)``);
        /// sources can be renamed.
        case dedicated
    }

    /// What `catalog check` verifies of a table.
    public enum Check: Sendable, Equatable {
        /// Source files: missing, or changed (re-hashed when size or modification time differ).
        case sourceFiles
        /// Artifact files with a recorded SHA-256: missing or changed.
        case artifactFiles
        /// Files named by `path` (with `sha256`): missing.
        case missingFiles(pathColumn: String)
        /// Runs left `running` by a process that is gone (marked failed), and folds a merge left incomplete.
        case runStates
        /// Sources used by clips of more than one split of one corpus.
        case splitLeaks
        /// A column naming a run without a foreign key (NULL allowed): the run exists.
        case runReference(column: String)
    }

    /// Which rows `runs export --table NAME --filter EXPR` writes.
    public enum Export: Sendable, Equatable {
        /// The rows whose `column` is a run that the filter keeps.
        case ofRuns(column: String)
        /// The rows whose `column` is a clip of a run that the filter keeps.
        case ofClipsOfRuns(column: String)
        /// Every row: the table is not tied to runs (a filter is refused).
        case whole
    }

    init(_ name: String, merge: Merge = Merge(), checks: [Check] = [], export: Export) {
        self.name = name; self.merge = merge; self.checks = checks; self.export = export
    }
}

extension CatalogTable {
    /// Every table of the catalogue, in the order a merge copies them.
    public static let all: [CatalogTable] = [
        CatalogTable("runs", merge: Merge(runIDColumns: ["parent_id"], foldedRunsOwnRows: "id", conflict: .dedicated),
                     checks: [.runStates], export: .ofRuns(column: "id")),
        CatalogTable("params", merge: Merge(foldedRunsOwnRows: "run_id"), export: .ofRuns(column: "run_id")),
        CatalogTable("run_tags", merge: Merge(runIDColumns: ["run_id"]), export: .ofRuns(column: "run_id")),
        CatalogTable("run_step_metrics", merge: Merge(runIDColumns: ["run_id"]), export: .ofRuns(column: "run_id")),
        CatalogTable("sources", merge: Merge(runIDColumns: ["import_run_id"], sourceIDColumns: ["id"], conflict: .dedicated),
                     checks: [.sourceFiles], export: .ofRuns(column: "import_run_id")),
        CatalogTable("clips", merge: Merge(runIDColumns: ["run_id"], clipIDColumns: ["id"],
                                           sourceIDColumns: ["speech_source_id", "rir_source_id"], conflict: .dedicated),
                     checks: [.splitLeaks], export: .ofRuns(column: "run_id")),
        CatalogTable("clip_noises", merge: Merge(clipIDColumns: ["clip_id"], sourceIDColumns: ["source_id"]),
                     export: .ofClipsOfRuns(column: "clip_id")),
        CatalogTable("clip_degradations", merge: Merge(clipIDColumns: ["clip_id"]), export: .ofClipsOfRuns(column: "clip_id")),
        CatalogTable("clip_degradation_params", merge: Merge(clipIDColumns: ["clip_id"]), export: .ofClipsOfRuns(column: "clip_id")),
        CatalogTable("artifacts", merge: Merge(runIDColumns: ["run_id"]), checks: [.artifactFiles], export: .ofRuns(column: "run_id")),
        CatalogTable("corpora", export: .whole),
        CatalogTable("corpus_mix_runs", merge: Merge(runIDColumns: ["mix_run_id"]), export: .ofRuns(column: "mix_run_id")),
        CatalogTable("score_targets", merge: Merge(runIDColumns: ["run_id", "enhance_run_id"]), export: .ofRuns(column: "run_id")),
        CatalogTable("clip_scores", merge: Merge(runIDColumns: ["run_id"], clipIDColumns: ["clip_id"]), export: .ofRuns(column: "run_id")),
        CatalogTable("run_metrics", merge: Merge(foldedRunsOwnRows: "run_id"), export: .ofRuns(column: "run_id")),
        CatalogTable("listening_tests", merge: Merge(conflict: .differing(key: ["name"], compared: ["kind", "stimuli_hash", "seed"])),
                     export: .whole),
        CatalogTable("listening_stimuli",
                     merge: Merge(runIDColumns: ["score_run_id"], clipIDColumns: ["clip_id"], parent: ("listening_tests", "test")),
                     checks: [.runReference(column: "score_run_id")], export: .whole),
        CatalogTable("listening_raters",
                     merge: Merge(conflict: .differing(key: ["test", "rater"], compared: ["source", "excluded", "rule"]),
                                  parent: ("listening_tests", "test")),
                     export: .whole),
        CatalogTable("listening_ratings",
                     merge: Merge(conflict: .differing(key: ["test", "rater", "stimulus", "scale"], compared: ["score", "time_seconds"]),
                                  parent: ("listening_tests", "test")),
                     export: .whole),
        CatalogTable("analysed_corpora",
                     merge: Merge(conflict: .differing(key: ["name"],
                                                       compared: ["folder", "analysed_at", "tool_version", "dnsmos_backend"])),
                     export: .whole),
        CatalogTable("source_analysis", merge: Merge(parent: ("analysed_corpora", "corpus")), checks: [.missingFiles(pathColumn: "path")],
                     export: .whole),
    ]

    /// The declaration of table `name`.
    public static func named(_ name: String) -> CatalogTable? { all.first { $0.name == name } }
}
