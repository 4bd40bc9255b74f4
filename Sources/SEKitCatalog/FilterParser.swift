/// A parsed filter expression (the abstract syntax tree).
public indirect enum FilterExpression: Equatable, Sendable {
    /// All of the terms (two or more), as written: `a and b and c` is one flat list.
    case and([FilterExpression])
    /// Any of the terms (two or more).
    case or([FilterExpression])
    case not(FilterExpression)
    /// `field op value`, op one of `= != < <= > >=`.
    case compare(FilterField, String, FilterValue)
    /// `field [not] like 'pattern'` (SQL LIKE: `%` any run, `_` one character).
    case like(FilterField, FilterValue, negated: Bool)
    /// `field [not] in (v1, v2, ...)`.
    case inList(FilterField, [FilterValue], negated: Bool)
    /// `field is [not] null`.
    case isNull(FilterField, negated: Bool)
}

/// A field named in a filter, with the column where it was written.
public struct FilterField: Equatable, Sendable {
    public var name: String
    public var column: Int
}

/// A number literal of a filter: its value, and its exact value when written as an integer
/// (a `Double` cannot hold every 64-bit seed: 11330540286530808424 would round).
public struct FilterNumber: Equatable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public var value: Double
    /// The exact whole number the literal names: from its digits when written with digits only, else
    /// from `value` when that is whole and below 2^53 in magnitude (`2.5e1` is 25); nil otherwise.
    public var exactInteger: Int128?

    /// A literal as written: `digits` is its text when it has digits only (after a sign).
    public init(value: Double, digits: String? = nil) {
        self.value = value
        if let digits, let exact = Int128(digits) {
            exactInteger = exact
        } else {
            exactInteger = value.rounded() == value && abs(value) <= 0x1p53 ? Int128(value) : nil
        }
    }
    public init(integerLiteral value: Int) { self.init(value: Double(value), digits: String(value)) }
    public init(floatLiteral value: Double) { self.init(value: value) }

    /// The value as an unsigned 64-bit integer, when it is a whole number in 0...UInt64.max exactly.
    public var unsignedInteger: UInt64? { exactInteger.flatMap { UInt64(exactly: $0) } }
}

/// A literal in a filter, with the column where it was written.
public struct FilterValue: Equatable, Sendable {
    public enum Literal: Equatable, Sendable { case number(FilterNumber), text(String) }
    public var literal: Literal
    public var column: Int
}

/// Recursive-descent parser for the filter language.
///
/// Grammar (keywords are case-insensitive):
/// ```
/// expression := or
/// or         := and ("or" and)*
/// and        := unary ("and" unary)*
/// unary      := "not" unary | "(" expression ")" | predicate
/// predicate  := FIELD ( OP value
///                     | ["not"] "like" STRING
///                     | ["not"] "in" "(" value ("," value)* ")"
///                     | "is" ["not"] "null" )
/// value      := NUMBER | STRING
/// ```
package struct FilterParser {
    let expression: String
    let tokens: [FilterToken]
    var position = 0
    /// Parentheses and `not`s currently open.
    package var depth = 0
    /// Deepest nesting of parentheses and `not` accepted: far beyond any filter a person writes,
    /// and bounded so that hostile input cannot exhaust the stack.
    package static let maximumDepth = 100

    /// Parses `expression` into an AST.
    /// - Throws: ``CatalogError/filter(expression:column:reason:)`` at the token where parsing failed.
    package static func parse(_ expression: String) throws(CatalogError) -> FilterExpression {
        var parser = FilterParser(expression: expression, tokens: try FilterLexer.tokens(expression))
        if case .end = parser.current.kind { throw parser.fail("empty filter", at: parser.current) }
        let result = try parser.parseOr()
        guard case .end = parser.current.kind else {
            throw parser.fail("unexpected \(describe(parser.current)); expected 'and', 'or' or the end", at: parser.current)
        }
        return result
    }

    var current: FilterToken { tokens[position] }

    func fail(_ reason: String, at token: FilterToken) -> CatalogError {
        .filter(expression: expression, column: token.column, reason: reason)
    }

    static func describe(_ token: FilterToken) -> String {
        switch token.kind {
        case .identifier(let name): "name '\(name)'"
        case .number(let number): "number \(number.exactInteger.map(String.init) ?? "\(number.value)")"
        case .string(let text): "string '\(text)'"
        case .keyword(let word): "'\(word)'"
        case .op(let op): "'\(op)'"
        case .leftParen: "'('"
        case .rightParen: "')'"
        case .comma: "','"
        case .end: "end of filter"
        }
    }

    mutating func accept(keyword: String) -> Bool {
        if case .keyword(keyword) = current.kind { position += 1; return true }
        return false
    }

    mutating func parseOr() throws(CatalogError) -> FilterExpression {
        var terms = [try parseAnd()]
        while accept(keyword: "or") { terms.append(try parseAnd()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    mutating func parseAnd() throws(CatalogError) -> FilterExpression {
        var terms = [try parseUnary()]
        while accept(keyword: "and") { terms.append(try parseUnary()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    /// Enters one level of nesting (a parenthesis or `not`), refusing more than ``maximumDepth``.
    package mutating func enter(_ token: FilterToken) throws(CatalogError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw fail("nested too deeply (more than \(Self.maximumDepth) levels of parentheses or 'not')", at: token)
        }
    }

    mutating func parseUnary() throws(CatalogError) -> FilterExpression {
        if case .keyword("not") = current.kind {
            try enter(current)
            position += 1
            defer { depth -= 1 }
            return .not(try parseUnary())
        }
        if case .leftParen = current.kind {
            let open = current
            try enter(open)
            defer { depth -= 1 }
            position += 1
            let inner = try parseOr()
            guard case .rightParen = current.kind else {
                throw fail("expected ')' to close the '(' at column \(open.column), found \(Self.describe(current))", at: current)
            }
            position += 1
            return inner
        }
        return try parsePredicate()
    }

    mutating func parsePredicate() throws(CatalogError) -> FilterExpression {
        guard case .identifier(let name) = current.kind else {
            throw fail("expected a field name, found \(Self.describe(current))", at: current)
        }
        let field = FilterField(name: name, column: current.column)
        position += 1
        let operatorToken = current
        switch current.kind {
        case .op(let op):
            position += 1
            return .compare(field, op, try parseValue())
        case .keyword("is"):
            position += 1
            let negated = accept(keyword: "not")
            guard accept(keyword: "null") else { throw fail("expected 'null' after 'is'", at: current) }
            return .isNull(field, negated: negated)
        case .keyword("not"), .keyword("like"), .keyword("in"):
            let negated = accept(keyword: "not")
            if accept(keyword: "like") {
                let pattern = try parseValue()
                guard case .text = pattern.literal else {
                    throw .filter(expression: expression, column: pattern.column, reason: "'like' needs a quoted pattern such as 'crn%'")
                }
                return .like(field, pattern, negated: negated)
            }
            if accept(keyword: "in") {
                guard case .leftParen = current.kind else { throw fail("expected '(' after 'in'", at: current) }
                position += 1
                var values = [try parseValue()]
                while case .comma = current.kind { position += 1; values.append(try parseValue()) }
                guard case .rightParen = current.kind else {
                    throw fail("expected ',' or ')' in the 'in' list, found \(Self.describe(current))", at: current)
                }
                position += 1
                return .inList(field, values, negated: negated)
            }
            throw fail("expected 'like' or 'in' after 'not'", at: current)
        default:
            throw fail("expected a comparison (= != < <= > >=, like, in, is null) after '\(name)', found \(Self.describe(operatorToken))",
                       at: operatorToken)
        }
    }

    mutating func parseValue() throws(CatalogError) -> FilterValue {
        let token = current
        switch token.kind {
        case .number(let value): position += 1; return FilterValue(literal: .number(value), column: token.column)
        case .string(let text): position += 1; return FilterValue(literal: .text(text), column: token.column)
        case .identifier(let name):
            throw fail("expected a number or a quoted string, found name '\(name)' (quote text values: '\(name)')", at: token)
        default:
            throw fail("expected a number or a quoted string, found \(Self.describe(token))", at: token)
        }
    }
}
