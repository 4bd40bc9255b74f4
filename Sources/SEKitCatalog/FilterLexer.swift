/// A token of the filter language, with the 1-based character column where it starts.
package struct FilterToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case identifier(String)      // snr_realised_db, params.checkpoint, metrics.stoi.mean
        case number(FilterNumber)
        case string(String)          // 'single quoted', '' escapes a quote
        case keyword(String)         // and or not like in is null (lower-cased)
        case op(String)              // = != < <= > >=
        case leftParen, rightParen, comma
        case end
    }
    var kind: Kind
    var column: Int
}

/// Splits a filter expression into tokens.
package enum FilterLexer {
    static let keywords: Set<String> = ["and", "or", "not", "like", "in", "is", "null"]

    /// Tokens of `expression`, ending with `.end`.
    /// - Throws: ``CatalogError/filter(expression:column:reason:)`` at the first character that starts no token.
    package static func tokens(_ expression: String) throws(CatalogError) -> [FilterToken] {
        let chars = Array(expression)
        var tokens: [FilterToken] = []
        var i = 0
        func fail(_ reason: String, at index: Int) -> CatalogError {
            .filter(expression: expression, column: index + 1, reason: reason)
        }
        func isIdentifierStart(_ c: Character) -> Bool { c == "_" || (c.isASCII && c.isLetter) }
        func isIdentifierPart(_ c: Character) -> Bool { isIdentifierStart(c) || (c.isASCII && c.isNumber) }
        func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
        while i < chars.count {
            let c = chars[i]
            let start = i
            if c.isWhitespace { i += 1; continue }
            switch c {
            case "(": tokens.append(FilterToken(kind: .leftParen, column: start + 1)); i += 1
            case ")": tokens.append(FilterToken(kind: .rightParen, column: start + 1)); i += 1
            case ",": tokens.append(FilterToken(kind: .comma, column: start + 1)); i += 1
            case "=":
                i += (i + 1 < chars.count && chars[i + 1] == "=") ? 2 : 1
                tokens.append(FilterToken(kind: .op("="), column: start + 1))
            case "!":
                guard i + 1 < chars.count, chars[i + 1] == "=" else { throw fail("expected '!=' ", at: i) }
                tokens.append(FilterToken(kind: .op("!="), column: start + 1)); i += 2
            case "<", ">":
                if i + 1 < chars.count, chars[i + 1] == "=" {
                    tokens.append(FilterToken(kind: .op(String(c) + "="), column: start + 1)); i += 2
                } else if c == "<", i + 1 < chars.count, chars[i + 1] == ">" {
                    tokens.append(FilterToken(kind: .op("!="), column: start + 1)); i += 2
                } else {
                    tokens.append(FilterToken(kind: .op(String(c)), column: start + 1)); i += 1
                }
            case "'":
                var text = ""
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == "'" {
                        if i + 1 < chars.count, chars[i + 1] == "'" { text.append("'"); i += 2; continue }
                        closed = true; i += 1; break
                    }
                    text.append(chars[i]); i += 1
                }
                guard closed else { throw fail("unterminated string (strings are single-quoted; write '' for a quote)", at: start) }
                tokens.append(FilterToken(kind: .string(text), column: start + 1))
            case "\"":
                throw fail("double quotes are not used; quote strings with single quotes", at: start)
            default:
                if isDigit(c) || ((c == "-" || c == "+" || c == ".") && i + 1 < chars.count
                                  && (isDigit(chars[i + 1]) || chars[i + 1] == ".")) {
                    var j = i + ((c == "-" || c == "+") ? 1 : 0)
                    while j < chars.count, isDigit(chars[j]) { j += 1 }
                    if j < chars.count, chars[j] == "." { j += 1; while j < chars.count, isDigit(chars[j]) { j += 1 } }
                    if j < chars.count, chars[j] == "e" || chars[j] == "E" {
                        var k = j + 1
                        if k < chars.count, chars[k] == "+" || chars[k] == "-" { k += 1 }
                        if k < chars.count, isDigit(chars[k]) {
                            while k < chars.count, isDigit(chars[k]) { k += 1 }
                            j = k
                        }
                    }
                    let text = String(chars[i..<j])
                    guard let value = Double(text), value.isFinite else { throw fail("malformed number", at: start) }
                    if j < chars.count, isIdentifierPart(chars[j]) { throw fail("malformed number", at: start) }
                    // Digits only (after a sign): keep the exact integer, which a Double may round (seeds ≥ 2^53).
                    let isInteger = text.drop(while: { $0 == "-" || $0 == "+" }).allSatisfy(isDigit)
                    tokens.append(FilterToken(kind: .number(FilterNumber(value: value, digits: isInteger ? text : nil)), column: start + 1))
                    i = j
                } else if isIdentifierStart(c) {
                    var j = i
                    while j < chars.count {
                        if isIdentifierPart(chars[j]) { j += 1; continue }
                        // A dot continues a dotted name (params.key, metrics.name.mean) when a name part follows.
                        if chars[j] == ".", j + 1 < chars.count, isIdentifierPart(chars[j + 1]) { j += 1; continue }
                        break
                    }
                    let word = String(chars[i..<j])
                    if keywords.contains(word.lowercased()) {
                        tokens.append(FilterToken(kind: .keyword(word.lowercased()), column: start + 1))
                    } else {
                        tokens.append(FilterToken(kind: .identifier(word), column: start + 1))
                    }
                    i = j
                } else {
                    throw fail("unexpected character '\(c)'", at: start)
                }
            }
        }
        tokens.append(FilterToken(kind: .end, column: chars.count + 1))
        return tokens
    }
}
