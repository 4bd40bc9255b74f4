import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// Columns of `sekit catalog clips`, in order. `noise_source_ids` lists a clip's noises by position, `;`-separated.
    public static let clipListingColumns = [
        "id", "run_id", "clip_index", "split", "speech_source_id", "speech_offset_seconds", "noise_source_ids",
        "rir_source_id", "snr_requested_db", "snr_realised_db", "level_dbfs", "speech_gain", "noise_gain",
        "clipping_scale", "seed", "sample_rate", "duration_seconds", "noisy_path", "clean_path", "noise_path",
    ]

    /// Streams the clips matching `filter` (see `CatalogFilter`) in `format` to `sink`, ordered by
    /// run and clip index; returns how many were written. Memory stays flat for `csv` and `json`.
    /// - Throws: `CatalogError.filter(expression:column:reason:)` for a bad filter.
    @discardableResult
    public func exportClips(filter: String?, format: TableFormat, limit: Int? = nil,
                            sink: @escaping (String) -> Void) throws(CatalogError) -> Int {
        let compiled = try CatalogFilter.compile(filter, context: .clips)
        let selected = Self.clipListingColumns.map { column in
            // clip_noises is a WITHOUT ROWID table keyed (clip_id, position): the range scan visits a
            // clip's noises in position order, and group_concat keeps the order it is fed.
            column == "noise_source_ids"
                ? "(SELECT group_concat(source_id, ';') FROM clip_noises WHERE clip_noises.clip_id = clips.id) AS noise_source_ids"
                : "clips.\(column)"
        }
        var sql = "SELECT \(selected.joined(separator: ", ")) FROM clips WHERE \(compiled.sql) ORDER BY clips.run_id, clips.clip_index"
        if let limit { sql += " LIMIT \(max(0, limit))" }
        return try streamRows(sql: sql, arguments: compiled.arguments, columns: Self.clipListingColumns,
                              kinds: Self.clipListingKinds, format: format, sink: sink)
    }

    /// Runs `sql` and streams its rows (one per result row, columns in `kinds`' storage classes)
    /// through a `TableWriter`; returns how many were written.
    func streamRows(sql: String, arguments: StatementArguments, columns: [String], kinds: [TableWriter.ColumnKind],
                    format: TableFormat, sink: @escaping (String) -> Void) throws(CatalogError) -> Int {
        var writer = TableWriter(columns: columns, format: format, sink: sink)
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() { writer.append(row: row, kinds: kinds) }
        }
        return writer.finish()
    }

    /// Storage of each listing column (the schema's types), for the fast CSV path.
    static let clipListingKinds: [TableWriter.ColumnKind] = clipListingColumns.map { column in
        switch column {
        case "clip_index", "sample_rate": .integer
        case "seed": .unsignedInteger
        case "speech_offset_seconds", "snr_requested_db", "snr_realised_db", "level_dbfs", "speech_gain",
             "noise_gain", "clipping_scale", "duration_seconds": .real
        default: .text
        }
    }

    /// Columns of `sekit runs list`.
    /// `clips`: the clips a run made (mix, import) or scored (score), whichever it recorded.
    public static let runListingColumns = ["id", "kind", "name", "status", "started_at", "finished_at", "clips", "command_line"]

    /// Writes the runs of `kind` (nil: every kind) matching `filter` in `format` to `sink`; returns
    /// how many. Ordered by `orderBy` (see `CatalogOrdering`), then newest first. The fields of
    /// `columns` (`CatalogOrdering.columns(_:context:)`: `params.lr,metrics.valid_stoi.last`), then
    /// the sort fields, that are not among ``runListingColumns`` get a column each, named as written,
    /// before `command_line`.
    @discardableResult
    public func exportRuns(kind: RunKind? = nil, filter: String?, orderBy: String? = nil, columns extra: String? = nil,
                           format: TableFormat, limit: Int? = nil, sink: @escaping (String) -> Void) throws(CatalogError) -> Int {
        var compiled = try CatalogFilter.compile(filter, context: .runs)
        if let kind {
            compiled.sql = "runs.kind = ? AND \(compiled.sql)"
            compiled.arguments = [kind.rawValue] + compiled.arguments
        }
        let order = try CatalogOrdering.compile(orderBy, context: .runs)
        // A sort key the listing does not show (`metrics.stoi.mean`, `params.epoch`) is shown, before
        // `command_line`: a reader sees what the rows are ordered by.
        var shownKeys: [CatalogOrdering.Key] = []
        let asked = try CatalogOrdering.columns(extra, context: .runs) ?? []
        for key in try asked + (CatalogOrdering.keys(orderBy, context: .runs) ?? [])
        where !Self.runListingColumns.contains(key.field.lowercased()) && !shownKeys.contains(where: { $0.field == key.field }) {
            shownKeys.append(key)
        }
        let columns = Self.runListingColumns.dropLast() + shownKeys.map(\.field) + ["command_line"]
        var sql = """
            SELECT id, kind, name, status, started_at, finished_at,
                   max((SELECT count(*) FROM clips WHERE clips.run_id = runs.id),
                       (SELECT count(DISTINCT clip_id) FROM clip_scores WHERE clip_scores.run_id = runs.id)),
                   \(shownKeys.map { $0.sql + ", " }.joined())command_line
            FROM runs WHERE \(compiled.sql) ORDER BY \(order.map { $0.sql + ", " } ?? "")started_at DESC, id
            """
        if let limit { sql += " LIMIT \(max(0, limit))" }
        var writer = TableWriter(columns: Array(columns), format: format, sink: sink)
        var arguments = StatementArguments()
        for key in shownKeys { arguments += key.arguments }
        arguments += compiled.arguments
        if let order { arguments += order.arguments }
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                writer.append((0..<columns.count).map { TableCell(row[$0] as DatabaseValue) })
            }
        }
        return writer.finish()
    }
}
