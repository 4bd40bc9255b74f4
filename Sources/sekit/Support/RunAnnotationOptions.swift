import ArgumentParser
import Foundation
import SEKit

/// `KEY=VALUE` of `--param`, `--tag` and `--metric`.
struct KeyValue: Sendable {
    var key: String
    var value: String

    /// Splits at the first `=`; the key must not be empty.
    static func parse(_ text: String) throws -> KeyValue {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("'\(text)' is not KEY=VALUE")
        }
        return KeyValue(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }

    /// `pairs` as a dictionary.
    /// - Throws: `ValidationError` naming the option when a key is given twice.
    static func dictionary(_ pairs: [KeyValue], option: String) throws -> [String: String] {
        var values: [String: String] = [:]
        for pair in pairs {
            if let earlier = values[pair.key], earlier != pair.value {
                throw ValidationError("--\(option) \(pair.key) is given twice (\(earlier), \(pair.value)); give it once")
            }
            values[pair.key] = pair.value
        }
        return values
    }
}

/// `--param KEY=VALUE` and `--tag KEY=VALUE`: what a user adds to the run a command records.
struct RunAnnotationOptions: ParsableArguments {
    @Option(name: .customLong("param"), help: ArgumentHelp(
        "A parameter to record with the run, KEY=VALUE (repeatable; a key the command records itself is refused).",
        valueName: "key=value"), transform: KeyValue.parse)
    var params: [KeyValue] = []

    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag of the run, KEY=VALUE (repeatable).", valueName: "key=value"),
            transform: KeyValue.parse)
    var tags: [KeyValue] = []

    func validate() throws {
        _ = try KeyValue.dictionary(params, option: "param")
        _ = try KeyValue.dictionary(tags, option: "tag")
    }

    /// `context` with these parameters and tags.
    func applied(to context: RunContext) throws -> RunContext {
        var context = context
        context.extraParams = try KeyValue.dictionary(params, option: "param")
        context.tags = try KeyValue.dictionary(tags, option: "tag")
        return context
    }
}
