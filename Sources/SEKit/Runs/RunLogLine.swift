import Foundation

/// One line of `sekit runs log RUN --jsonl`: a JSON object
/// `{"step": 3, "metrics": {"loss": 0.1}, "params": {"lr": "0.001"}, "tags": {"stage": "warm-up"}, "time": 1733000000.25}`,
/// every member optional (metrics need a step). Parameter and tag values may be strings, numbers or
/// booleans (stored as their JSON text). `time` is the client's clock, Unix seconds.
///
/// Parsed as JSON5, so that `NaN` and `Infinity` (which Python's `json.dumps` writes) reach the
/// check that refuses them naming the metric, instead of failing as unreadable JSON.
public enum RunLogLine {
    /// The members a line may have.
    public static let members = ["step", "metrics", "params", "tags", "time"]

    private struct Line: Decodable {
        /// The step written as a whole number (exact up to 2^63 − 1, as `runs log --step` takes it).
        var wholeStep: Int?
        /// The step written otherwise (`3.0`, `1.5`, `1e3`): accepted when it is a whole number below 10^15.
        var step: Double?
        var metrics: [String: Double]?
        var params: [String: Scalar]?
        var tags: [String: Scalar]?
        var time: Double?
        /// The first member that is none of ``members``.
        var unknown: String?

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            unknown = container.allKeys.map(\.stringValue).sorted().first { !RunLogLine.members.contains($0) }
            let stepKey = Key(stringValue: "step")
            if let whole = try? container.decodeIfPresent(Int.self, forKey: stepKey) {
                wholeStep = whole
            } else {
                step = try container.decodeIfPresent(Double.self, forKey: stepKey)
            }
            metrics = try container.decodeIfPresent([String: Double].self, forKey: Key(stringValue: "metrics"))
            params = try container.decodeIfPresent([String: Scalar].self, forKey: Key(stringValue: "params"))
            tags = try container.decodeIfPresent([String: Scalar].self, forKey: Key(stringValue: "tags"))
            time = try container.decodeIfPresent(Double.self, forKey: Key(stringValue: "time"))
        }
    }

    /// A parameter or tag value: text, a number or a boolean, kept as written.
    private struct Scalar: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) { text = string; return }
            if let bool = try? container.decode(Bool.self) { text = bool ? "true" : "false"; return }
            let number = try container.decode(Double.self)
            text = number.isFinite && number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        }
    }

    /// The entry one line records.
    /// - Throws: `RunsError.logLine(line:reason:)` saying what is wrong (not a JSON object, an
    ///   unknown member, a member of the wrong type, a step that is not a whole number).
    public static func parse(_ text: Substring, lineNumber: Int) throws(RunsError) -> RunLogEntry {
        func refuse(_ reason: String) -> RunsError { .logLine(line: lineNumber, reason: reason) }
        let excerpt = text.count > 80 ? text.prefix(77) + "..." : text
        let data = Data(text.utf8)
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let line: Line
        do {
            line = try decoder.decode(Line.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            guard !path.isEmpty else { throw refuse("not a JSON object: \(excerpt)") }
            let expected = path.hasPrefix("params") || path.hasPrefix("tags") ? "a string, number or boolean"
                : path.contains(".") || path == "step" || path == "time" ? "a number" : "an object"
            throw refuse("\(path): expected \(expected): \(excerpt)")
        } catch {
            throw refuse("not JSON: \(excerpt)")
        }
        if let unknown = line.unknown {
            throw refuse("unknown member '\(unknown)'; a line has \(members.joined(separator: ", "))")
        }
        var entry = RunLogEntry(metrics: line.metrics ?? [:], params: (line.params ?? [:]).mapValues(\.text),
                                tags: (line.tags ?? [:]).mapValues(\.text))
        if let whole = line.wholeStep {
            entry.step = whole
        } else if let step = line.step {
            guard step.isFinite, step == step.rounded(), abs(step) < 1e15 else {
                throw refuse("step \(step): a step is a whole number (beyond 10^15, write it without a fraction or exponent)")
            }
            entry.step = Int(step)
        }
        if let time = line.time {
            guard time.isFinite else { throw refuse("time \(time): Unix seconds, a finite number") }
            entry.time = Date(timeIntervalSince1970: time)
        }
        return entry
    }
}
