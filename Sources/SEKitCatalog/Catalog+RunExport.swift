import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// Leading columns of `sekit runs export` (then `params.KEY` and `metrics.NAME.STAT` columns).
    public static let runExportColumns = ["id", "kind", "name", "status", "started_at", "finished_at", "parent_id",
                                          "tool_version", "host", "command_line"]
    /// Statistics of each metric column group of `sekit runs export` (overall aggregates).
    public static let runExportMetricStats = ["mean", "std", "ci95_low", "ci95_high", "n"]

    /// Writes the runs matching `filter` (newest first) as a flat table: the run's fields, one
    /// `params.KEY` column per parameter key any of them has, and `metrics.NAME.STAT` columns of
    /// their overall aggregates (STAT in ``runExportMetricStats``). Missing values are empty/null.
    @discardableResult
    public func exportRunTable(filter: String?, format: TableFormat, sink: @escaping (String) -> Void) throws(CatalogError) -> Int {
        let compiled = try CatalogFilter.compile(filter, context: .runs)
        return try read { db in
            let runs = try RunRecord.fetchAll(db, sql: "SELECT runs.* FROM runs WHERE \(compiled.sql) ORDER BY started_at DESC, id",
                                              arguments: compiled.arguments)
            var params: [RunID: [String: String]] = [:]
            var metrics: [RunID: [String: RunMetricRecord]] = [:]
            for run in runs {
                let key = run.id.rawValue
                params[run.id] = Dictionary(uniqueKeysWithValues: try ParamRecord.filter(ParamRecord.Columns.runID == key)
                    .fetchAll(db).map { ($0.key, $0.valueText) })
                metrics[run.id] = Dictionary(uniqueKeysWithValues: try RunMetricRecord
                    .filter(RunMetricRecord.Columns.runID == key && RunMetricRecord.Columns.subset == "").fetchAll(db).map { ($0.metric,
                                                                                                                              $0) })
            }
            let paramKeys = Set(params.values.flatMap(\.keys)).sorted()
            let metricNames = Set(metrics.values.flatMap(\.keys)).sorted()
            let columns = Self.runExportColumns + paramKeys.map { "params.\($0)" }
                + metricNames.flatMap { name in Self.runExportMetricStats.map { "metrics.\(name).\($0)" } }
            var writer = TableWriter(columns: columns, format: format, sink: sink)
            let dates = ISO8601DateFormatter()
            for run in runs {
                var row: [TableCell] = [.text(run.id.rawValue), .text(run.kind.rawValue), .text(run.name), .text(run.status.rawValue),
                                        .text(dates.string(from: run.startedAt)),
                                                run.finishedAt.map { .text(dates.string(from: $0)) } ?? .null,
                                        run.parentID.map { .text($0.rawValue) } ?? .null, .text(run.toolVersion), .text(run.host),
                                        .text(run.commandLine)]
                for key in paramKeys {
                    guard let text = params[run.id]?[key] else { row.append(.null); continue }
                    row.append(ParamRecord.number(from: text).map { .real($0) } ?? .text(text))
                }
                for name in metricNames {
                    guard let m = metrics[run.id]?[name] else { row += Array(repeating: .null,
                                                                             count: Self.runExportMetricStats.count); continue }
                    row += [.real(m.mean), m.std.map { .real($0) } ?? .null, m.ci95.map { .real($0.low) } ?? .null,
                            m.ci95.map { .real($0.high) } ?? .null, .integer(Int64(m.n))]
                }
                writer.append(row)
            }
            return writer.finish()
        }
    }

    /// Columns of `sekit runs export --per-clip`.
    public static let clipScoreExportColumns = [
        "run_id", "run_name", "clip_id", "metric", "value", "noisy_value", "improvement", "error",
        "split", "snr_requested_db", "snr_realised_db", "speaker", "speech_source_id", "speech_corpus", "noise_source_ids",
        "clip_index", "duration_seconds",
    ]

    /// Streams one row per (run, clip, metric) of the score runs matching `filter` (runs oldest
    /// first, then clips by id and metrics by name), with the clip's split, SNRs, speaker and sources joined from
    /// the catalogue (empty when the clip was not catalogued). Memory stays flat for `csv`/`json`.
    @discardableResult
    public func exportClipScores(filter: String?, format: TableFormat, sink: @escaping (String) -> Void) throws(CatalogError) -> Int {
        let compiled = try CatalogFilter.compile(filter, context: .runs)
        let sql = """
            SELECT runs.id, runs.name, s.clip_id, s.metric, s.value, s.noisy_value, s.value - s.noisy_value, s.error,
                   c.split, c.snr_requested_db, c.snr_realised_db, src.speaker, c.speech_source_id, src.corpus,
                   (SELECT group_concat(source_id, ';') FROM clip_noises WHERE clip_noises.clip_id = c.id),
                   c.clip_index, c.duration_seconds
            FROM runs JOIN clip_scores s ON s.run_id = runs.id
                 LEFT JOIN clips c ON c.id = s.clip_id
                 LEFT JOIN sources src ON src.id = c.speech_source_id
            WHERE \(compiled.sql)
            ORDER BY runs.started_at, runs.id, s.clip_id, s.metric
            """
        return try streamRows(sql: sql, arguments: compiled.arguments, columns: Self.clipScoreExportColumns,
                              kinds: Self.clipScoreExportKinds, format: format, sink: sink)
    }

    static let clipScoreExportKinds: [TableWriter.ColumnKind] = clipScoreExportColumns.map { column in
        switch column {
        case "value", "noisy_value", "improvement", "snr_requested_db", "snr_realised_db", "duration_seconds": .real
        case "clip_index": .integer
        default: .text
        }
    }
}
