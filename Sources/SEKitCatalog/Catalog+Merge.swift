import Foundation
import GRDB

extension Catalog {
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
        /// The table: `sources`, `runs`, `clips`, or one declaring its conflicts (``CatalogTable/Conflict``:
        /// `listening_tests`, `listening_raters`, `listening_ratings`, `analysed_corpora`).
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
    /// Every table of the catalogue is copied (``CatalogTable/all``: runs and their parameters, tags,
    /// step metrics, artifacts, clips, scores and aggregates, sources, listening tests, source analyses).
    /// A source with the same id but another file (sha256, bytes or path differ), a run with the same
    /// id but another kind, start, command line, host or pid, a clip with the same id but other
    /// values, or a row of a table declaring its conflicts (a listening test of the same name with
    /// other stimuli, a rater's other results file, another rating, another analysis of a corpus of
    /// the same name) is a conflict, resolved by `onConflict`. Each input is merged in one transaction: an
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
    package func merge(_ inputs: [MergeInput], onConflict: MergeConflictPolicy,
                       foldingRuns: [RunID: RunID]) throws(CatalogError) -> MergeReport {
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
                    // The input's own folded runs, as literals in the copy's SQL (no lookup per row), and the
                    // shard mix runs its corpora name (the other shards', recorded in other catalogues).
                    let present = Set(try String.fetchAll(db, sql: """
                        SELECT id FROM shard.runs UNION SELECT mix_run_id FROM shard.corpus_mix_runs
                        """))
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
        for table in CatalogTable.all {
            let names = try db.columns(in: table.name).map(\.name)
            let columns = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let values = names.map { incomingSQL(table: table.name, column: $0, mapping: mapping,
                                                 sourcesRenamed: sourcesRenamed) }.joined(separator: ", ")
            try db.execute(sql: """
                INSERT INTO main.\(table.name) (\(columns)) SELECT \(values) FROM shard.\(table.name) AS s
                WHERE \(mapping.keptSQL(table.merge)) AND \(keptUnderKeptParentSQL(table.merge))
                ON CONFLICT DO NOTHING
                """)
            counts[table.name] = db.changesCount
        }
        return counts
    }

    /// The page cache a merge uses, as SQLite's negative KiB count (256 MiB; only what is used is allocated).
    package static let mergeCacheKiB = -262_144

    /// The value an input row's `column` takes in OUT (the table's ``CatalogTable/Merge`` says which
    /// columns hold what): source ids renamed (when `sourcesRenamed`: `temp.merge_source_ids` has rows;
    /// a lookup per row otherwise wasted), folded runs mapped.
    package static func incomingSQL(table: String, column: String, mapping: RunMapping, sourcesRenamed: Bool) -> String {
        let value = "s.\"\(column)\""
        guard let merge = CatalogTable.named(table)?.merge else { return value }
        if merge.sourceIDColumns.contains(column) { return sourcesRenamed ? renamedSourceSQL(value) : value }
        if merge.runIDColumns.contains(column) { return mapping.runSQL(value) }
        if merge.clipIDColumns.contains(column) { return mapping.clipSQL(value) }
        return value
    }

    /// The input rows of a table whose parent row conflicted and was kept as OUT has it
    /// (`temp.merge_kept_first`): left out.
    package static func keptUnderKeptParentSQL(_ merge: CatalogTable.Merge) -> String {
        guard let parent = merge.parent else { return "true" }
        return "s.\"\(parent.column)\" NOT IN (SELECT key FROM temp.merge_kept_first WHERE table_name = '\(parent.table)')"
    }

    /// Shard runs of one input and the runs they fold into, written into the copy's SQL as literals.
    package struct RunMapping {
        var pairs: [(old: String, new: String)]

        private static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

        /// `value` (a run id) mapped.
        package func runSQL(_ value: String) -> String {
            guard !pairs.isEmpty else { return value }
            return "CASE \(value) "
                + pairs.map { "WHEN \(Self.literal($0.old)) THEN \(Self.literal($0.new)) " }.joined()
                + "ELSE \(value) END"
        }

        /// `value` (a catalogue clip id, `RUN/CLIP`) under its run's folded run.
        package func clipSQL(_ value: String) -> String {
            guard !pairs.isEmpty else { return value }
            return "CASE " + pairs.map { pair -> String in
                "WHEN substr(\(value), 1, \(pair.old.count + 1)) = \(Self.literal(pair.old + "/")) "
                    + "THEN \(Self.literal(pair.new)) || substr(\(value), \(pair.old.count + 1)) "
            }.joined() + "ELSE \(value) END"
        }

        /// `(old, ...)` for `NOT IN`.
        package var oldList: String { "(" + pairs.map { Self.literal($0.old) }.joined(separator: ", ") + ")" }

        /// The input rows of a table that are copied: not the folded shard runs' own rows.
        package func keptSQL(_ merge: CatalogTable.Merge) -> String {
            guard !pairs.isEmpty, let column = merge.foldedRunsOwnRows else { return "true" }
            return "s.\"\(column)\" NOT IN \(oldList)"
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
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS merge_kept_first (table_name TEXT NOT NULL, key TEXT NOT NULL)")
        try db.execute(sql: "DELETE FROM temp.merge_kept_first")
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

        let declared = try declaredConflicts(db, input: input)
        switch policy {
        case .keepFirst:
            // The input's rows under a row kept as OUT has it are left out with it.
            for (table, key) in declared.kept {
                try db.execute(sql: "INSERT INTO temp.merge_kept_first VALUES (?, ?)", arguments: [table, key])
            }
            return (sources + runs + clips + declared.conflicts).map { var item = $0; item.resolution = "kept-first"; return item }
        case .error, .rename:
            // Renamed sources are resolved; anything else refuses the input.
            let refused = (policy == .error ? sources : unrenamable) + runs + clips + declared.conflicts
            if !refused.isEmpty {
                throw CatalogError.mergeConflict(input: input, output: output,
                                                 conflicts: refused.map { "\($0.table) \($0.id): \($0.detail)" })
            }
            return sources
        }
    }

    /// The rows of the tables declaring ``CatalogTable/Conflict/differing(key:compared:)`` whose key
    /// OUT holds with other values: the conflicts, and the one-column keys a keep-first merge keeps
    /// (their children are then left out).
    private static func declaredConflicts(_ db: Database, input: String)
        throws -> (conflicts: [MergeConflict], kept: [(table: String, key: String)]) {
        var conflicts: [MergeConflict] = [], kept: [(table: String, key: String)] = []
        for table in CatalogTable.all {
            guard case let .differing(key, compared) = table.merge.conflict else { continue }
            let join = key.map { "m.\"\($0)\" = s.\"\($0)\"" }.joined(separator: " AND ")
            let differs = compared.map { "(s.\"\($0)\" IS NOT m.\"\($0)\")" }
            let names = zip(compared, differs).map { name, test in "(CASE WHEN \(test) THEN '\(name), ' ELSE '' END)" }
            let keySQL = key.map { "s.\"\($0)\"" }.joined(separator: " || '/' || ")
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(keySQL), rtrim(\(names.joined(separator: " || ")), ', ')
                FROM shard.\(table.name) AS s JOIN main.\(table.name) AS m ON \(join)
                WHERE \(differs.joined(separator: " OR ")) ORDER BY 1
                """)
            for row in rows {
                let id: String = row[0]
                conflicts.append(MergeConflict(input: input, table: table.name, id: id,
                                               detail: "same key, different \(row[1] as String)", resolution: ""))
                if key.count == 1 { kept.append((table.name, id)) }
            }
        }
        return (conflicts, kept)
    }

    /// Whether two paths name the same file (same device and inode, links followed).
    package static func sameFile(_ a: URL, _ b: URL) -> Bool {
        let fm = FileManager.default
        guard let x = try? fm.attributesOfItem(atPath: a.resolvingSymlinksInPath().path),
              let y = try? fm.attributesOfItem(atPath: b.resolvingSymlinksInPath().path) else { return false }
        return (x[.systemNumber] as? NSNumber) == (y[.systemNumber] as? NSNumber)
            && (x[.systemFileNumber] as? NSNumber) == (y[.systemFileNumber] as? NSNumber)
    }
}
