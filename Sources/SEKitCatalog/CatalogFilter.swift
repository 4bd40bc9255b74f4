import GRDB

/// The filter language of `sekit catalog clips --filter` and `sekit runs list --filter`, compiled
/// to parameterised SQL.
///
/// Example: `kind = 'score' and metrics.stoi.mean > 0.8 and (params.checkpoint like 'crn%' or params.snr_db in (0, 5))`.
/// Field names are checked against a whitelist for the context; every value, parameter key and
/// metric name is bound as an SQL argument, never spliced into the SQL text.
///
/// - `params.KEY`: a parameter of the run. For clips, a parameter of the clip's degradations when
///   it has one (`params.mp3_bitrate_kbps`, `params.packet_loss`), else of the clip's run. Compared
///   with a number it uses the numeric value (so `10 > 9`), with a string or `like` the text value.
/// - `degradation` (clips): the clip has a degradation of that kind (`'mp3'`, `'packet-loss'`) or
///   stage (`'codec'`: any codec); `'none'` or `is null`: it has none. Takes `=`, `!=`, `like`,
///   `in` and `is [not] null`; `!=`, `not like`, `not in` mean it has no such degradation.
/// - `lineage.params.KEY`: a parameter of any run of the lineage: the run itself, its parent, the
///   parent's parent... (a score run's enhance run and mix run). A comparison holds when it holds
///   for one of them; `is null` when none has the key. Sorting and listing columns take the nearest
///   run's value (the run's own, else its parent's, ...).
/// - `tags.KEY`: a tag of the run (text).
/// - `metrics.NAME.FIELD`: FIELD one of `mean std n ci95_low ci95_high`, the run's overall aggregate
///   (subset '') of metric NAME; or one of `last first min max steps`, of the per-step metric NAME
///   (`run_step_metrics`: the value at the last or first step, the smallest, the largest, how many steps).
/// - A missing parameter or metric is NULL: it satisfies no comparison (SQL semantics); test it with `is null`.
public enum CatalogFilter {
    /// What is being filtered.
    public enum Context: String, Sendable {
        case clips, runs
        /// The files of an analysed corpus (`source_analysis`, `sekit catalog analyze`): the mix's
        /// `corpus:NAME where ...`. Only its columns are fields (no `params.`, `tags.` or `metrics.`).
        case sourceAnalysis = "analysed sources"
    }

    /// A compiled filter: an SQL boolean expression over the context's table and its arguments.
    public struct Compiled: Sendable {
        public var sql: String
        public var arguments: StatementArguments
    }

    /// `unsignedInteger`: a `UInt64` stored as its bit pattern in a signed INTEGER (the clip seed),
    /// compared by its unsigned value.
    package enum FieldType { case number, unsignedInteger, text }

    /// Fields of each context: name → (SQL expression over the context table, type).
    package static let fields: [Context: [String: (sql: String, type: FieldType)]] = [
        .clips: [
            "id": ("clips.id", .text),
            "run": ("clips.run_id", .text),
            "run_id": ("clips.run_id", .text),
            "clip_index": ("clips.clip_index", .number),
            "split": ("clips.split", .text),
            "speech_source": ("clips.speech_source_id", .text),
            "speech_source_id": ("clips.speech_source_id", .text),
            "speech_offset_seconds": ("clips.speech_offset_seconds", .number),
            "rir_source": ("clips.rir_source_id", .text),
            "rir_source_id": ("clips.rir_source_id", .text),
            "snr_requested_db": ("clips.snr_requested_db", .number),
            "snr_realised_db": ("clips.snr_realised_db", .number),
            "level_dbfs": ("clips.level_dbfs", .number),
            "speech_gain": ("clips.speech_gain", .number),
            "noise_gain": ("clips.noise_gain", .number),
            "clipping_scale": ("clips.clipping_scale", .number),
            "seed": ("clips.seed", .unsignedInteger),
            "sample_rate": ("clips.sample_rate", .number),
            "duration_seconds": ("clips.duration_seconds", .number),
            "noisy_path": ("clips.noisy_path", .text),
            "clean_path": ("clips.clean_path", .text),
            "noise_path": ("clips.noise_path", .text),
            "corpus": ("(SELECT corpus FROM sources WHERE sources.id = clips.speech_source_id)", .text),
            "speaker": ("(SELECT speaker FROM sources WHERE sources.id = clips.speech_source_id)", .text),
            "run_name": ("(SELECT name FROM runs WHERE runs.id = clips.run_id)", .text),
        ],
        .runs: [
            "id": ("runs.id", .text),
            "kind": ("runs.kind", .text),
            "name": ("runs.name", .text),
            "status": ("runs.status", .text),
            "started_at": ("runs.started_at", .text),
            "finished_at": ("runs.finished_at", .text),
            "tool_version": ("runs.tool_version", .text),
            "command_line": ("runs.command_line", .text),
            "working_directory": ("runs.working_directory", .text),
            "host": ("runs.host", .text),
            "pid": ("runs.pid", .number),
            "parent": ("runs.parent_id", .text),
            "parent_id": ("runs.parent_id", .text),
            "error": ("runs.error", .text),
            "clips": ("(SELECT count(*) FROM clips WHERE clips.run_id = runs.id)", .number),
        ],
        .sourceAnalysis: sourceAnalysisFields,
    ]

    /// Fields of ``Context/sourceAnalysis``: the columns of `source_analysis`, by their own names.
    package static let sourceAnalysisFields: [String: (sql: String, type: FieldType)] = {
        let numbers = ["sample_rate", "duration_seconds", "bandwidth_hz", "active_speech_ratio", "clipping_ratio", "dc_offset",
                       "level_dbfs", "rms_dbfs", "dnsmos_sig", "dnsmos_bak", "dnsmos_ovrl"]
        var fields: [String: (sql: String, type: FieldType)] = [:]
        for name in numbers { fields[name] = ("source_analysis.\(name)", .number) }
        for name in ["path", "relative_path", "sha256", "error"] { fields[name] = ("source_analysis.\(name)", .text) }
        return fields
    }()

    /// Aggregate fields of `metrics.NAME.FIELD` → run_metrics column.
    package static let metricFields: [String: String] = [
        "mean": "mean", "std": "std", "n": "n", "ci95_low": "ci95_low", "ci95_high": "ci95_high",
    ]

    /// Fields of `metrics.NAME.FIELD` over per-step metrics → SQL over `run_step_metrics` rows `s`
    /// of the run and key.
    package static let stepMetricFields: [String: String] = [
        "last": "(SELECT s.value FROM run_step_metrics s WHERE s.run_id = %@ AND s.key = ? ORDER BY s.step DESC LIMIT 1)",
        "first": "(SELECT s.value FROM run_step_metrics s WHERE s.run_id = %@ AND s.key = ? ORDER BY s.step LIMIT 1)",
        "min": "(SELECT min(s.value) FROM run_step_metrics s WHERE s.run_id = %@ AND s.key = ?)",
        "max": "(SELECT max(s.value) FROM run_step_metrics s WHERE s.run_id = %@ AND s.key = ?)",
        "steps": "(SELECT count(*) FROM run_step_metrics s WHERE s.run_id = %@ AND s.key = ?)",
    ]

    /// Every FIELD of `metrics.NAME.FIELD`, sorted.
    package static var allMetricFields: [String] { (Array(metricFields.keys) + Array(stepMetricFields.keys)).sorted() }

    /// The runs of the lineage of the run `runID` (an SQL expression) as a CTE `lineage(id, depth)`:
    /// the run at depth 0, its parent at 1, ... (64 generations at most, so a cycle ends).
    package static func lineageCTE(_ runID: String) -> String {
        "WITH RECURSIVE lineage(id, depth) AS (SELECT \(runID), 0 UNION ALL SELECT r.parent_id, lineage.depth + 1 "
            + "FROM lineage JOIN runs r ON r.id = lineage.id WHERE r.parent_id IS NOT NULL AND lineage.depth < 64) "
    }

    /// Field names accepted in `context` (besides `params.KEY` and `metrics.NAME.FIELD`), sorted.
    public static func fieldNames(for context: Context) -> [String] { (fields[context] ?? [:]).keys.sorted() }

    /// Parses a filter expression into its syntax tree.
    /// - Throws: ``CatalogError/filter(expression:column:reason:)`` pointing at the failing column.
    public static func parse(_ expression: String) throws(CatalogError) -> FilterExpression {
        try FilterParser.parse(expression)
    }

    /// Compiles `expression` for `context`; nil or blank compiles to `1` (everything).
    /// - Throws: ``CatalogError/filter(expression:column:reason:)`` for syntax errors, unknown fields
    ///   and type mismatches (a number field compared with a string, `like` on a number).
    public static func compile(_ expression: String?, context: Context) throws(CatalogError) -> Compiled {
        guard let expression, !expression.allSatisfy(\.isWhitespace) else { return Compiled(sql: "1", arguments: []) }
        let tree = try parse(expression)
        var compiler = Compiler(expression: expression, context: context)
        let sql = try compiler.emit(tree)
        return Compiled(sql: sql, arguments: StatementArguments(compiler.arguments))
    }

    /// A resolved field: a fixed column/subquery, a run parameter (number and text forms), or the
    /// clip's set of degradations.
    package enum Resolved {
        case column(sql: String, type: FieldType)
        case param(key: String)
        /// `lineage.params.KEY`: compared as "some run of the lineage has it so"; `lineage.KIND.KEY`
        /// (`lineage.mix.seed`): the same over the lineage's runs of that kind only.
        case lineageParam(key: String, kind: String?)
        case degradation
    }

    /// The `degradation` value naming clips without any degradation.
    package static let noDegradation = "none"

    struct Compiler {
        let expression: String
        let context: Context
        var arguments: [DatabaseValue] = []

        var runIDSQL: String { context == .clips ? "clips.run_id" : "runs.id" }

        func fail(_ reason: String, column: Int) -> CatalogError {
            .filter(expression: expression, column: column, reason: reason)
        }

        mutating func emitAll(_ nodes: [FilterExpression]) throws(CatalogError) -> [String] {
            var parts: [String] = []
            for node in nodes { parts.append(try emit(node)) }
            return parts
        }

        mutating func emit(_ node: FilterExpression) throws(CatalogError) -> String {
            switch node {
            // Flat lists: SQLite's parser takes hundreds of terms joined this way, but overflows its
            // stack on ~100 levels of nested parentheses.
            case .and(let terms): return "(" + (try emitAll(terms)).joined(separator: " AND ") + ")"
            case .or(let terms): return "(" + (try emitAll(terms)).joined(separator: " OR ") + ")"
            case .not(let e): return "(NOT \(try emit(e)))"
            case .compare(let field, let op, let value) where isDegradation(field):
                guard op == "=" || op == "!=" else { throw fail("'degradation' takes =, !=, like, in or is null, not \(op)",
                                                                column: field.column) }
                return try degradationSQL([value], negated: op == "!=", field: field, op: "=")
            case .like(let field, let pattern, let negated) where isDegradation(field):
                return try degradationSQL([pattern], negated: negated, field: field, op: "LIKE")
            case .inList(let field, let values, let negated) where isDegradation(field):
                return try degradationSQL(values, negated: negated, field: field, op: "IN")
            case .isNull(let field, let negated) where isDegradation(field):
                return "(\(negated ? "" : "NOT ")EXISTS (SELECT 1 FROM clip_degradations d WHERE d.clip_id = clips.id))"
            case .compare(let field, let op, let value):
                let sqlOp = op == "!=" ? "<>" : op
                let (target, type) = try operand(field, for: value)
                if type == .unsignedInteger { return try unsignedComparison(target, sqlOp, value, field: field) }
                arguments.append(Self.databaseValue(value))
                return inLineage(field, "(\(target) \(sqlOp) ?)")
            case .like(let field, let pattern, let negated):
                let (target, _) = try operand(field, for: pattern)
                arguments.append(Self.databaseValue(pattern))
                return inLineage(field, "(\(target) \(negated ? "NOT LIKE" : "LIKE") ?)")
            case .inList(let field, let values, let negated) where isLineage(field):
                return inLineage(field, try inListSQL(field, values, negated: negated))
            case .inList(let field, let values, let negated):
                return try inListSQL(field, values, negated: negated)
            case .isNull(let field, let negated):
                let target: String
                switch try resolve(field) {
                case .column(let sql, _): target = sql
                case .param(let key): target = paramSQL(key: key, column: "value_text")
                case .lineageParam(let key, let kind):
                    bindLineage(key: key, kind: kind)
                    return "(\(negated ? "" : "NOT ")EXISTS (\(CatalogFilter.lineageCTE(runIDSQL))"
                        + "SELECT 1 FROM lineage JOIN params p ON p.run_id = lineage.id\(Self.kindJoin(kind)) WHERE p.key = ?))"
                case .degradation: preconditionFailure("handled above")
                }
                return "(\(target) IS \(negated ? "NOT " : "")NULL)"
            }
        }

        /// `target [not] in (values)` for `field`.
        package mutating func inListSQL(_ field: FilterField, _ values: [FilterValue], negated: Bool) throws(CatalogError) -> String {
                let (target, type) = try operand(field, for: values[0])
                for value in values.dropFirst() where Self.isNumber(value) != Self.isNumber(values[0]) {
                    throw fail("an 'in' list mixes numbers and strings", column: value.column)
                }
                // The operand was resolved once; its subquery arguments precede the list's.
                for value in values {
                    arguments.append(type == .unsignedInteger ? try unsignedBits(value,
                                                                                 field: field).databaseValue : Self.databaseValue(value))
                }
                let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
                return "(\(target) \(negated ? "NOT IN" : "IN") (\(marks)))"
        }

        /// Whether `field` is `lineage.params.KEY` or `lineage.KIND.KEY` (by name: resolving a field may bind arguments).
        package func isLineage(_ field: FilterField) -> Bool {
            field.name.lowercased().hasPrefix("lineage.")
        }

        /// The run kind `lineage.KIND.KEY` names (nil for `lineage.params.KEY`), by name.
        package static func lineageKind(_ field: FilterField) -> String? {
            let parts = field.name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 3, parts[1].lowercased() != "params" else { return nil }
            return parts[1].lowercased()
        }

        /// The join that keeps the lineage's runs of `kind` (nothing when nil); its argument is bound
        /// by ``bindLineage(key:kind:)``.
        package static func kindJoin(_ kind: String?) -> String {
            kind == nil ? "" : " JOIN runs lineage_run ON lineage_run.id = lineage.id AND lineage_run.kind = ?"
        }

        /// Binds a lineage parameter's arguments in the order its SQL uses them: the kind, then the key.
        package mutating func bindLineage(key: String, kind: String?) {
            if let kind { arguments.append(kind.databaseValue) }
            arguments.append(key.databaseValue)
        }

        /// `condition` (over `p`, a row of `params` whose key was bound by ``operand(_:for:)``) as
        /// "some run of the lineage has such a parameter" when `field` is `lineage.params.KEY`.
        package func inLineage(_ field: FilterField, _ condition: String) -> String {
            guard isLineage(field) else { return condition }
            return "(EXISTS (\(CatalogFilter.lineageCTE(runIDSQL))SELECT 1 FROM lineage JOIN params p ON p.run_id = lineage.id"
                + "\(Self.kindJoin(Self.lineageKind(field))) WHERE p.key = ? AND \(condition)))"
        }

        /// Whether `field` is the clips' `degradation` (by name: resolving a field may bind arguments).
        package func isDegradation(_ field: FilterField) -> Bool {
            context == .clips && field.name.lowercased() == "degradation"
        }

        /// Clips with (or, `negated`, without) a degradation whose kind or stage is `op` (`=`, `LIKE`
        /// or `IN`) `values`; the value `none` stands for "no degradation at all".
        package mutating func degradationSQL(_ values: [FilterValue], negated: Bool, field: FilterField,
                                     op: String) throws(CatalogError) -> String {
            var named: [String] = [], none = false
            for value in values {
                guard case .text(let text) = value.literal else { throw fail("'degradation' is text; quote the value",
                                                                             column: value.column) }
                if text == CatalogFilter.noDegradation && op != "LIKE" { none = true } else { named.append(text) }
            }
            var parts: [String] = []
            if !named.isEmpty {
                let condition = op == "IN" ? "IN (" + Array(repeating: "?", count: named.count).joined(separator: ", ") + ")" : "\(op) ?"
                // The values bound twice: against the kind, then against the stage.
                for text in named + named { arguments.append(text.databaseValue) }
                parts.append("EXISTS (SELECT 1 FROM clip_degradations d WHERE d.clip_id = clips.id "
                             + "AND (d.kind \(condition) OR d.stage \(condition)))")
            }
            if none { parts.append("NOT EXISTS (SELECT 1 FROM clip_degradations d WHERE d.clip_id = clips.id)") }
            let any = "(" + parts.joined(separator: " OR ") + ")"
            return negated ? "(NOT \(any))" : any
        }

        /// The bit pattern stored for the unsigned integer `value` compared with `field`.
        /// - Throws: a filter error unless `value` is a whole number from 0 to 2^64 − 1.
        package func unsignedBits(_ value: FilterValue, field: FilterField) throws(CatalogError) -> Int64 {
            guard case .number(let number) = value.literal, let unsigned = number.unsignedInteger else {
                throw fail("'\(field.name)' is an unsigned 64-bit integer; compare it with a whole number from 0 to \(UInt64.max)",
                           column: value.column)
            }
            return Int64(bitPattern: unsigned)
        }

        /// `target op value` by unsigned value, where `target` holds bit patterns: values with the top
        /// bit set are negative as stored and above every value without it, so order within each
        /// half is the signed order, and every value of the lower half is below the upper half.
        package mutating func unsignedComparison(_ target: String, _ op: String, _ value: FilterValue,
                                         field: FilterField) throws(CatalogError) -> String {
            let bits = try unsignedBits(value, field: field)
            arguments.append(bits.databaseValue)
            let upperHalf = bits < 0
            switch op {
            case "=", "<>": return "(\(target) \(op) ?)"
            case "<", "<=": return upperHalf ? "(\(target) >= 0 OR \(target) \(op) ?)" : "(\(target) >= 0 AND \(target) \(op) ?)"
            default: return upperHalf ? "(\(target) < 0 AND \(target) \(op) ?)" : "(\(target) < 0 OR \(target) \(op) ?)"
            }
        }

        /// The SQL for `field` when compared with `value`, and its type, type-checked; appends the field's own arguments.
        package mutating func operand(_ field: FilterField, for value: FilterValue) throws(CatalogError) -> (sql: String, type: FieldType) {
            switch try resolve(field) {
            case .column(let sql, let type):
                switch (type, value.literal) {
                case (.number, .text), (.unsignedInteger, .text):
                    throw fail("'\(field.name)' is a number; compare it with a number, not a string", column: value.column)
                case (.text, .number):
                    throw fail("'\(field.name)' is text; quote the value", column: value.column)
                default:
                    return (sql, type)
                }
            case .param(let key):
                let isNumber = Self.isNumber(value)
                return (paramSQL(key: key, column: isNumber ? "value_number" : "value_text"), isNumber ? .number : .text)
            case .lineageParam(let key, let kind):
                // Kind and key are bound here, before the value: `lineage_run.kind = ? ... p.key = ? AND (p.value_x op ?)`.
                bindLineage(key: key, kind: kind)
                let isNumber = Self.isNumber(value)
                return (isNumber ? "p.value_number" : "p.value_text", isNumber ? .number : .text)
            case .degradation:
                preconditionFailure("handled by degradationSQL")
            }
        }

        /// The value of `lineage.params.KEY` at the nearest run of the lineage that has it (for sorting
        /// and columns): its number when it spells one, else its text.
        package mutating func nearestLineageParamSQL(key: String, kind: String?) -> String {
            bindLineage(key: key, kind: kind)
            return "(\(CatalogFilter.lineageCTE(runIDSQL))SELECT coalesce(p.value_number, p.value_text) FROM lineage "
                + "JOIN params p ON p.run_id = lineage.id\(Self.kindJoin(kind)) WHERE p.key = ? ORDER BY lineage.depth LIMIT 1)"
        }

        mutating func paramSQL(key: String, column: String) -> String {
            let run = "(SELECT \(column) FROM params WHERE params.run_id = \(runIDSQL) AND params.key = ?)"
            guard context == .clips else {
                arguments.append(key.databaseValue)
                return run
            }
            // A clip's own degradation parameter first, then its run's.
            arguments.append(key.databaseValue)
            arguments.append(key.databaseValue)
            return "COALESCE((SELECT \(column) FROM clip_degradation_params p WHERE p.clip_id = clips.id AND p.key = ?), \(run))"
        }

        mutating func resolve(_ field: FilterField) throws(CatalogError) -> Resolved {
            let parts = field.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let head = parts[0].lowercased()
            if context == .sourceAnalysis {
                guard parts.count == 1, let entry = fields[context]?[head] else {
                    let known = fieldNames(for: context).joined(separator: ", ")
                    throw fail("unknown field '\(field.name)' for analysed sources; known: \(known)", column: field.column)
                }
                return .column(sql: entry.sql, type: entry.type)
            }
            if head == "params" {
                guard parts.count >= 2 else { throw fail("write params.KEY, e.g. params.snr_db", column: field.column) }
                return .param(key: parts.dropFirst().joined(separator: "."))
            }
            if head == "lineage" {
                let kinds = RunKind.allCases.map(\.rawValue)
                guard parts.count >= 3 else {
                    throw fail("write lineage.params.KEY (a parameter of the run or any of its ancestors) or lineage.KIND.KEY "
                               + "(of its ancestor of that kind: lineage.mix.seed; kinds: \(kinds.joined(separator: ", ")))",
                               column: field.column)
                }
                let scope = parts[1].lowercased()
                guard scope == "params" || kinds.contains(scope) else {
                    throw fail("'\(parts[1])' in \(field.name) is not a run kind; write lineage.KIND.KEY with KIND one of "
                               + "\(kinds.joined(separator: ", ")), or lineage.params.KEY", column: field.column)
                }
                return .lineageParam(key: parts.dropFirst(2).joined(separator: "."), kind: scope == "params" ? nil : scope)
            }
            if head == "tags" {
                guard parts.count >= 2 else { throw fail("write tags.KEY, e.g. tags.stage", column: field.column) }
                arguments.append(parts.dropFirst().joined(separator: ".").databaseValue)
                return .column(sql: "(SELECT value FROM run_tags WHERE run_tags.run_id = \(runIDSQL) AND run_tags.key = ?)", type: .text)
            }
            if head == "metrics" {
                let known = allMetricFields.joined(separator: ", ")
                guard parts.count == 3 else {
                    throw fail("write metrics.NAME.FIELD, FIELD one of \(known)", column: field.column)
                }
                if let step = stepMetricFields[parts[2].lowercased()] {
                    arguments.append(parts[1].databaseValue)
                    return .column(sql: step.replacingOccurrences(of: "%@", with: runIDSQL), type: .number)
                }
                guard let column = metricFields[parts[2].lowercased()] else {
                    throw fail("unknown metric field '\(parts[2])'; use one of \(known)", column: field.column)
                }
                arguments.append(parts[1].databaseValue)
                return .column(sql: "(SELECT \(column) FROM run_metrics WHERE run_metrics.run_id = \(runIDSQL) "
                                    + "AND run_metrics.metric = ? AND run_metrics.subset = '')", type: .number)
            }
            if isDegradation(field) { return .degradation }
            guard parts.count == 1, let entry = fields[context]?[head] else {
                let extra = context == .clips ? "degradation, " : ""
                throw fail("unknown field '\(field.name)' for \(context.rawValue); "
                           + "known: \(fieldNames(for: context).joined(separator: ", ")), "
                           + "\(extra)params.KEY, lineage.params.KEY, lineage.KIND.KEY, tags.KEY, metrics.NAME.FIELD", column: field.column)
            }
            return .column(sql: entry.sql, type: entry.type)
        }

        static func isNumber(_ value: FilterValue) -> Bool {
            if case .number = value.literal { return true }
            return false
        }

        static func databaseValue(_ value: FilterValue) -> DatabaseValue {
            switch value.literal {
            case .number(let number): number.value.databaseValue
            case .text(let text): text.databaseValue
            }
        }
    }
}
