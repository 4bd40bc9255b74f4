import GRDB

/// `--order-by` of `sekit runs list` (and any listing): a comma-separated list of fields of the
/// filter language, each optionally followed by `asc` or `desc` (default `asc`), compiled to an
/// SQL `ORDER BY` list.
///
/// Example: `metrics.stoi.mean desc, params.epoch asc`. Rows missing a field (NULL: no such
/// parameter or metric) sort after the rows that have it, whatever the direction. A parameter sorts
/// by its number when it has one, else by its text (numbers before text, as SQLite orders them).
public enum CatalogOrdering {
    /// The most sort keys one `--order-by` takes (SQLite's limit on `ORDER BY` terms is far above
    /// any real use, and each key is two terms).
    public static let maximumKeys = 100

    /// One sort key: the field as written and its SQL expression (arguments bound with it).
    public struct Key: Sendable {
        public var field: String
        public var sql: String
        public var arguments: StatementArguments
        public var descending: Bool
    }

    /// Compiles `spec` for `context`; nil or blank compiles to an empty list.
    /// - Throws: ``CatalogError/filter(expression:column:reason:)`` naming the bad field or direction.
    public static func compile(_ spec: String?, context: CatalogFilter.Context) throws(CatalogError) -> CatalogFilter.Compiled? {
        guard let keys = try keys(spec, context: context) else { return nil }
        var arguments = StatementArguments()
        var terms: [String] = []
        for key in keys {
            // `(x IS NULL)` is 0 for present values, 1 for missing ones: missing sorts last. The
            // expression appears twice, so its arguments are bound twice.
            arguments += key.arguments
            arguments += key.arguments
            terms.append("(\(key.sql) IS NULL), \(key.sql) \(key.descending ? "DESC" : "ASC")")
        }
        return CatalogFilter.Compiled(sql: terms.joined(separator: ", "), arguments: arguments)
    }

    /// Fields of `spec` (`params.lr, metrics.valid_stoi.last`: fields of the filter language,
    /// comma-separated, without a direction) to show as columns of a listing, in order; nil for nil or blank.
    /// - Throws: ``CatalogError/filter(expression:column:reason:)`` naming the bad field.
    public static func columns(_ spec: String?, context: CatalogFilter.Context) throws(CatalogError) -> [Key]? {
        guard let spec else { return nil }
        var offset = 0
        for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let words = part.split(whereSeparator: \.isWhitespace)
            if words.count > 1 {
                let column = offset + 1 + part.distance(from: part.startIndex, to: words[1].startIndex)
                throw .filter(expression: spec, column: column, reason: "write FIELD, comma-separated; '\(words[1])' is not expected here")
            }
            offset += part.count + 1
        }
        return try keys(spec, context: context)
    }

    /// The sort keys of `spec` for `context`, in order; nil for nil or blank.
    /// - Throws: as ``compile(_:context:)``; more than ``maximumKeys`` keys.
    public static func keys(_ spec: String?, context: CatalogFilter.Context) throws(CatalogError) -> [Key]? {
        guard let spec, !spec.allSatisfy(\.isWhitespace) else { return nil }
        var compiler = CatalogFilter.Compiler(expression: spec, context: context)
        var keys: [Key] = []
        var offset = 0
        let parts = spec.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maximumKeys else {
            throw .invalidParameter(name: "order-by", value: "\(parts.count) sort keys", reason: "at most \(maximumKeys) are taken")
        }
        for part in parts {
            defer { offset += part.count + 1 }
            let words = part.split(whereSeparator: \.isWhitespace)
            /// The 1-based column of a word of this key in the whole spec.
            func position(of word: Substring) -> Int { offset + 1 + part.distance(from: part.startIndex, to: word.startIndex) }
            let column = offset + 1 + (part.firstIndex { !$0.isWhitespace }.map { part.distance(from: part.startIndex, to: $0) } ?? 0)
            guard let first = words.first else { throw compiler.fail("empty sort key; write FIELD [asc|desc], comma-separated",
                                                                     column: column) }
            guard words.count <= 2 else {
                throw compiler.fail("write FIELD [asc|desc]; '\(words[2])' is not expected here", column: position(of: words[2]))
            }
            var descending = false
            if words.count == 2 {
                switch words[1].lowercased() {
                case "asc": descending = false
                case "desc": descending = true
                default: throw compiler.fail("sort direction is asc or desc, not '\(words[1])'", column: position(of: words[1]))
                }
            }
            let firstArgument = compiler.arguments.count
            let target: String
            switch try compiler.resolve(FilterField(name: String(first), column: column)) {
            case .column(let sql, _): target = sql
            case .param(let key):
                let number = compiler.paramSQL(key: key, column: "value_number")
                let text = compiler.paramSQL(key: key, column: "value_text")
                target = "coalesce(\(number), \(text))"
            case .lineageParam(let key, let kind):
                target = compiler.nearestLineageParamSQL(key: key, kind: kind)
            case .degradation:
                throw compiler.fail("cannot sort by 'degradation' (a clip may have several); filter by it", column: column)
            }
            keys.append(Key(field: String(first), sql: target, arguments: StatementArguments(Array(compiler.arguments[firstArgument...])),
                            descending: descending))
        }
        return keys
    }
}
