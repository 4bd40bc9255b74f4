import Foundation
import GRDB

extension Catalog {
    /// Tables in the order a merge copies them (parents before children, for the foreign keys).
    /// A run's tags and per-step metrics (`v3-tracking`) go with it; a folded shard run's onto the folded run.
    static let mergeOrder = ["runs", "params", "run_tags", "run_step_metrics", "sources", "clips", "clip_noises", "clip_degradations",
                             "clip_degradation_params", "artifacts", "clip_scores", "run_metrics"]

    /// Columns holding a source id, per table: where a renamed source is re-pointed.
    static let sourceIDColumns = ["sources": ["id"], "clips": ["speech_source_id", "rir_source_id"], "clip_noises": ["source_id"]]

    /// What a merge does with a row whose key OUT already holds with different content.
    public enum MergeConflictPolicy: String, Sendable, Codable, CaseIterable {
        /// Refuse the input: nothing of it is merged, the conflicts are listed.
        case error
        /// Keep OUT's row; the input's rows that refer to it then refer to OUT's (reported).
        case keepFirst = "keep-first"
        /// Give the input's source a new id, `ID~<first 8 hex of its sha256>`, and re-point the input's
        /// clips and clip noises to it. Conflicting runs and clips cannot be renamed: still an error.
        case rename
    }

    /// One row whose key OUT already holds with different content.
    public struct MergeConflict: Sendable, Codable, Equatable {
        /// The input catalogue.
        public var input: String
        /// `sources`, `runs` or `clips`.
        public var table: String
        public var id: String
        /// What differs, OUT's value then the input's.
        public var detail: String
        /// `kept-first`, `renamed to ID~…`, or empty when the merge was refused.
        public var resolution: String
    }

    /// What a merge copied.
    public struct MergeReport: Sendable, Codable {
        /// Per input file: rows inserted per table.
        public var inserted: [String: [String: Int]] = [:]
        /// Runs that were `running` in the output and are finished or failed in an input, updated.
        public var runsCompleted = 0
        /// Rows that conflicted and how they were resolved (`--on-conflict keep-first|rename`).
        public var conflicts: [MergeConflict] = []
        /// Runs folded from shard runs (`Catalog/merge(_:onConflict:folding:)`).
        public var folded: [FoldedRunReport] = []
        /// Total rows inserted.
        public var totalInserted: Int { inserted.values.flatMap(\.values).reduce(0, +) }
    }

    /// Merges shard catalogues into this one: every row whose key is not present yet is copied;
    /// rows already present with the same content are kept (ids are UUIDs, mixer-given clip ids and
    /// `corpus:path` source ids, so shards of one job agree), except that a run still `running` here
    /// takes the final status an input has for it. Merging the same input twice adds nothing.
    ///
    /// A source with the same id but another file (sha256, bytes or path differ), a run with the same
    /// id but another kind, start, command line, host or pid, or a clip with the same id but other
    /// values is a conflict, resolved by `onConflict`. Each input is merged in one transaction: an
    /// input refused for conflicts adds nothing (inputs before it stay merged).
    /// - Parameter inputs: shard catalogues. Every input is checked before anything is written, and
    ///   none is ever modified: each is read through a read-only connection, and one from an older
    ///   SEKit through a temporary copy migrated to the current schema.
    /// - Throws: ``CatalogError/mergeConflict(input:output:conflicts:)`` listing the conflicts;
    ///   ``CatalogError`` naming the input that is missing, empty, corrupt, newer, or violates a constraint.
    public func merge(_ inputs: [URL], onConflict: MergeConflictPolicy = .error) throws(CatalogError) -> MergeReport {
        let prepared = try Self.prepareMergeInputs(inputs, output: url)
        defer { prepared.forEach { $0.discard() } }
        return try merge(prepared, onConflict: onConflict, foldingRuns: [:])
    }

    /// ``merge(_:onConflict:)`` with the rows of the shard runs in `foldingRuns` (shard run → the
    /// run it folds into, which OUT already holds) copied under the folded run: their clips keyed
    /// `FOLDED/CLIP`, their scores, artifacts, sources and children pointing to it; the shard runs'
    /// own rows (run, parameters, aggregates) are left out. Rows OUT holds already are skipped, so a
    /// merge interrupted half-way completes when run again.
    func merge(_ inputs: [MergeInput], onConflict: MergeConflictPolicy, foldingRuns: [RunID: RunID]) throws(CatalogError) -> MergeReport {
        var report = MergeReport()
        for input in inputs {
            let inputURL = input.url
            let result: (counts: [String: Int], completed: Int, conflicts: [MergeConflict])
            do {
                result = try writeWithoutTransaction { db in
                    // A large page cache: the copy updates every index of the big tables in clip
                    // order, and a small cache writes the same index pages out again and again.
                    try db.execute(sql: "PRAGMA main.cache_size = \(Self.mergeCacheKiB)")
                    try db.execute(sql: "ATTACH DATABASE ? AS shard", arguments: [input.attachName])
                    defer { try? db.execute(sql: "DETACH DATABASE shard") }
                    var result: (counts: [String: Int], completed: Int, conflicts: [MergeConflict]) = ([:], 0, [])
                    // The input's own folded runs, as literals in the copy's SQL (no lookup per row).
                    let present = Set(try String.fetchAll(db, sql: "SELECT id FROM shard.runs"))
                    // Runs owning clips first: a clip id is then mapped by the first test of the CASE.
                    let owners = foldingRuns.isEmpty ? [] : Set(try String.fetchAll(db, sql: "SELECT DISTINCT run_id FROM shard.clips"))
                    let mapping = RunMapping(pairs: foldingRuns.filter { present.contains($0.key.rawValue) }
                        .map { ($0.key.rawValue, $0.value.rawValue) }
                        .sorted { owners.contains($0.0) == owners.contains($1.0) ? $0.0 < $1.0 : owners.contains($0.0) })
                    try db.inTransaction(.immediate) {
                        result.conflicts = try Self.resolveConflicts(db, input: inputURL.path, output: url.path, policy: onConflict,
                                                                     mapping: mapping)
                        result.counts = try Self.copyRows(db, mapping: mapping, sourcesRenamed: try Self.sourcesRenamed(db))
                        try db.execute(sql: """
                            UPDATE main.runs SET status = s.status, finished_at = s.finished_at, error = s.error
                            FROM shard.runs AS s
                            WHERE main.runs.id = s.id AND main.runs.status = 'running' AND s.status != 'running'
                            """)
                        result.completed = db.changesCount
                        try Self.joinCorpusLineage(db)
                        return .commit
                    }
                    return result
                }
            } catch {
                if case .mergeConflict = error { throw error }
                throw .database(path: inputURL.path, reason: "merging into \(url.path) failed: \(error)")
            }
            report.inserted[inputURL.path] = result.counts
            report.runsCompleted += result.completed
            report.conflicts += result.conflicts
        }
        return report
    }

    /// Score, enhance and features runs recorded in another catalogue than their corpus's mix run (no parent, param
    /// `corpus_mix_runs` naming one mix run) take that run as parent once OUT holds it.
    private static func joinCorpusLineage(_ db: Database) throws {
        try db.execute(sql: """
            UPDATE main.runs SET parent_id = p.value_text
            FROM main.params AS p JOIN main.runs AS mix ON mix.id = p.value_text AND mix.kind = 'mix'
            WHERE p.run_id = main.runs.id AND p.key = ? AND main.runs.parent_id IS NULL \
            AND main.runs.kind IN ('score', 'enhance', 'features')
            """, arguments: [ScoredCorpus.corpusMixRunsKey])
    }

    /// Copies the attached `shard`'s rows OUT lacks, table by table, source ids mapped through
    /// `temp.merge_source_ids` (when `sourcesRenamed`) and folded shard runs through `mapping`;
    /// returns the rows inserted per table.
    private static func copyRows(_ db: Database, mapping: RunMapping, sourcesRenamed: Bool) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in mergeOrder {
            let names = try db.columns(in: table).map(\.name)
            let columns = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let values = names.map { incomingSQL(table: table, column: $0, mapping: mapping,
                                                 sourcesRenamed: sourcesRenamed) }.joined(separator: ", ")
            try db.execute(sql: """
                INSERT INTO main.\(table) (\(columns)) SELECT \(values) FROM shard.\(table) AS s WHERE \(mapping.keptSQL(table))
                ON CONFLICT DO NOTHING
                """)
            counts[table] = db.changesCount
        }
        return counts
    }

    /// The page cache a merge uses, as SQLite's negative KiB count (256 MiB; only what is used is allocated).
    static let mergeCacheKiB = -262_144

    /// Columns holding a run id or a catalogue clip id (`RUN/CLIP`), per table: where a folded
    /// shard run is mapped to its folded run.
    static let runIDColumns = ["runs": ["parent_id"], "sources": ["import_run_id"], "clips": ["run_id"], "artifacts": ["run_id"],
                               "clip_scores": ["run_id"], "run_tags": ["run_id"], "run_step_metrics": ["run_id"]]
    static let clipIDColumns = ["clips": ["id"], "clip_noises": ["clip_id"], "clip_degradations": ["clip_id"],
                                "clip_degradation_params": ["clip_id"], "clip_scores": ["clip_id"]]

    /// The value an input row's `column` takes in OUT: source ids renamed (when `sourcesRenamed`:
    /// `temp.merge_source_ids` has rows; a lookup per row otherwise wasted), folded runs mapped.
    static func incomingSQL(table: String, column: String, mapping: RunMapping, sourcesRenamed: Bool) -> String {
        let value = "s.\"\(column)\""
        if (sourceIDColumns[table] ?? []).contains(column) { return sourcesRenamed ? renamedSourceSQL(value) : value }
        if (runIDColumns[table] ?? []).contains(column) { return mapping.runSQL(value) }
        if (clipIDColumns[table] ?? []).contains(column) { return mapping.clipSQL(value) }
        return value
    }

    /// Shard runs of one input and the runs they fold into, written into the copy's SQL as literals.
    struct RunMapping {
        var pairs: [(old: String, new: String)]

        private static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

        /// `value` (a run id) mapped.
        func runSQL(_ value: String) -> String {
            guard !pairs.isEmpty else { return value }
            return "CASE \(value) "
                + pairs.map { "WHEN \(Self.literal($0.old)) THEN \(Self.literal($0.new)) " }.joined()
                + "ELSE \(value) END"
        }

        /// `value` (a catalogue clip id, `RUN/CLIP`) under its run's folded run.
        func clipSQL(_ value: String) -> String {
            guard !pairs.isEmpty else { return value }
            return "CASE " + pairs.map { pair -> String in
                "WHEN substr(\(value), 1, \(pair.old.count + 1)) = \(Self.literal(pair.old + "/")) "
                    + "THEN \(Self.literal(pair.new)) || substr(\(value), \(pair.old.count + 1)) "
            }.joined() + "ELSE \(value) END"
        }

        /// `(old, ...)` for `NOT IN`.
        var oldList: String { "(" + pairs.map { Self.literal($0.old) }.joined(separator: ", ") + ")" }

        /// The input rows of `table` that are copied: not the folded shard runs' own rows.
        func keptSQL(_ table: String) -> String {
            guard !pairs.isEmpty else { return "true" }
            switch table {
            case "runs": return "s.id NOT IN \(oldList)"
            case "params", "run_metrics": return "s.run_id NOT IN \(oldList)"
            default: return "true"
            }
        }
    }

    /// Whether the input being merged has renamed sources (`temp.merge_source_ids` has rows).
    private static func sourcesRenamed(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM temp.merge_source_ids)") ?? true
    }

    /// The source id `expression` after renaming (itself unless renamed).
    private static func renamedSourceSQL(_ expression: String) -> String {
        "COALESCE((SELECT new_id FROM temp.merge_source_ids WHERE old_id = \(expression)), \(expression))"
    }

    /// Finds the shard's rows whose key OUT holds with other content and applies `policy`: fills
    /// `temp.merge_source_ids` with renamed sources, or throws listing the conflicts.
    private static func resolveConflicts(_ db: Database, input: String, output: String,
                                         policy: MergeConflictPolicy, mapping: RunMapping) throws -> [MergeConflict] {
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS merge_source_ids (old_id TEXT PRIMARY KEY, new_id TEXT NOT NULL)")
        try db.execute(sql: "DELETE FROM temp.merge_source_ids")
        func conflict(_ table: String, _ id: String, _ detail: String) -> MergeConflict {
            MergeConflict(input: input, table: table, id: id, detail: detail, resolution: "")
        }

        var sources: [MergeConflict] = []
        let sourceRows = try Row.fetchAll(db, sql: """
            SELECT s.id, m.sha256, s.sha256, m.bytes, s.bytes, m.path, s.path
            FROM shard.sources AS s JOIN main.sources AS m ON m.id = s.id
            WHERE s.sha256 <> m.sha256 OR s.bytes <> m.bytes OR s.path <> m.path ORDER BY s.id
            """)
        var unrenamable: [MergeConflict] = []
        for row in sourceRows {
            let id: String = row[0], incomingSHA: String = row[2]
            var item = conflict("sources", id,
                                "OUT has sha256 \((row[1] as String).prefix(12))…, \(row[3] as Int) bytes, \(row[5] as String); "
                                + "the input has sha256 \(incomingSHA.prefix(12))…, \(row[4] as Int) bytes, \(row[6] as String)")
            if policy == .rename {
                let newID = "\(id)~\(incomingSHA.prefix(8))"
                // The new id may be present from an earlier merge of the same file; another file under it is a conflict.
                if let taken = try String.fetchOne(db, sql: "SELECT sha256 FROM main.sources WHERE id = ?", arguments: [newID]),
                        taken != incomingSHA {
                    item.detail += "; cannot rename: \(newID) is already another file in OUT"
                    unrenamable.append(item)
                    continue
                }
                try db.execute(sql: "INSERT INTO temp.merge_source_ids VALUES (?, ?)", arguments: [id, newID])
                item.resolution = "renamed to \(newID)"
            }
            sources.append(item)
        }

        let runs = try Row.fetchAll(db, sql: """
            SELECT s.id, m.kind, s.kind, m.started_at, s.started_at, m.command_line, s.command_line, m.host, s.host, m.pid, s.pid
            FROM shard.runs AS s JOIN main.runs AS m ON m.id = s.id
            WHERE s.id NOT IN \(mapping.oldList) AND (s.kind <> m.kind OR s.started_at <> m.started_at OR s.command_line <> m.command_line
               OR s.host <> m.host OR s.pid <> m.pid) ORDER BY s.id
            """).map { row in
            conflict("runs", row[0], "OUT has \(row[1] as String) run started \(row[3] as String) on \(row[7] as String) "
                     + "pid \(row[9] as Int): \(row[5] as String); the input has \(row[2] as String) run started \(row[4] as String) "
                     + "on \(row[8] as String) pid \(row[10] as Int): \(row[6] as String)")
        }

        let clipColumns = try db.columns(in: "clips").map(\.name).filter { $0 != "id" }
        let renamed = try sourcesRenamed(db)
        let differs = clipColumns.map { name in
            "(\(incomingSQL(table: "clips", column: name, mapping: mapping, sourcesRenamed: renamed)) IS NOT m.\"\(name)\")"
        }
        // The names of the differing columns, "a, b, " (SQLite 3.40 has no concat_ws).
        let differingNames = zip(clipColumns, differs).map { name, test in "(CASE WHEN \(test) THEN '\(name), ' ELSE '' END)" }
        let clips = try Row.fetchAll(db, sql: """
            SELECT s.id, rtrim(\(differingNames.joined(separator: " || ")), ', ')
            FROM shard.clips AS s JOIN main.clips AS m \
            ON m.id = \(incomingSQL(table: "clips", column: "id", mapping: mapping, sourcesRenamed: renamed))
            WHERE \(differs.joined(separator: " OR ")) ORDER BY s.id
            """).map { row in conflict("clips", row[0], "same clip id, different \(row[1] as String)") }

        switch policy {
        case .keepFirst:
            return (sources + runs + clips).map { var item = $0; item.resolution = "kept-first"; return item }
        case .error, .rename:
            // Renamed sources are resolved; anything else refuses the input.
            let refused = (policy == .error ? sources : unrenamable) + runs + clips
            if !refused.isEmpty {
                throw CatalogError.mergeConflict(input: input, output: output,
                                                 conflicts: refused.map { "\($0.table) \($0.id): \($0.detail)" })
            }
            return sources
        }
    }

    /// Whether two paths name the same file (same device and inode, links followed).
    static func sameFile(_ a: URL, _ b: URL) -> Bool {
        let fm = FileManager.default
        guard let x = try? fm.attributesOfItem(atPath: a.resolvingSymlinksInPath().path),
              let y = try? fm.attributesOfItem(atPath: b.resolvingSymlinksInPath().path) else { return false }
        return (x[.systemNumber] as? NSNumber) == (y[.systemNumber] as? NSNumber)
            && (x[.systemFileNumber] as? NSNumber) == (y[.systemFileNumber] as? NSNumber)
    }
}
