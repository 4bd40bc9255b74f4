import GRDB

extension CatalogFilter {
    /// One condition of a filter's top-level `and`: its text (written back from the syntax tree)
    /// and its SQL.
    public struct Condition: Sendable {
        public var text: String
        public var compiled: Compiled
    }

    /// The conditions of `expression`'s top-level `and` (the whole expression when it is not an
    /// `and`), each compiled on its own for `context`: a row the whole filter rejects fails at
    /// least one of them, which says why it was left out.
    /// - Throws: as ``compile(_:context:)``.
    public static func conditions(of expression: String, context: Context) throws(CatalogError) -> [Condition] {
        let tree = try parse(expression)
        let terms: [FilterExpression]
        if case .and(let all) = tree { terms = all } else { terms = [tree] }
        var conditions: [Condition] = []
        for term in terms {
            var compiler = Compiler(expression: expression, context: context)
            let sql = try compiler.emit(term)
            let compiled = Compiled(sql: sql, arguments: StatementArguments(compiler.arguments))
            conditions.append(Condition(text: text(of: term), compiled: compiled))
        }
        return conditions
    }

    /// `node` written back in the filter language (keywords lower case, one space between words).
    public static func text(of node: FilterExpression) -> String {
        switch node {
        case .and(let terms): return terms.map { grouped($0) }.joined(separator: " and ")
        case .or(let terms): return terms.map { grouped($0) }.joined(separator: " or ")
        case .not(let inner): return "not " + grouped(inner)
        case .compare(let field, let op, let value): return "\(field.name) \(op) \(text(of: value))"
        case .like(let field, let pattern, let negated): return "\(field.name) \(negated ? "not " : "")like \(text(of: pattern))"
        case .inList(let field, let values, let negated):
            return "\(field.name) \(negated ? "not " : "")in (\(values.map { text(of: $0) }.joined(separator: ", ")))"
        case .isNull(let field, let negated): return "\(field.name) is \(negated ? "not " : "")null"
        }
    }

    static func grouped(_ node: FilterExpression) -> String {
        switch node {
        case .and, .or: "(" + text(of: node) + ")"
        default: text(of: node)
        }
    }

    static func text(of value: FilterValue) -> String {
        switch value.literal {
        case .number(let number): number.exactInteger.map { "\($0)" } ?? "\(number.value)"
        case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }
}
