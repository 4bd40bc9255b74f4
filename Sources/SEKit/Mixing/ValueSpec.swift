import Foundation

/// A value drawn per clip: one of a list (uniformly) or uniform over a closed range.
///
/// Text forms (as on the command line): `-5,0,5,10` (a list; one value is a list of one),
/// `-5:20` (uniform over [-5, 20]).
public enum ValueSpec: Sendable, Equatable, Codable, CustomStringConvertible {
    case list([Double])
    case uniform(low: Double, high: Double)

    /// A suggestion for a range written the way other tools write it (`-5..15`, `-5-15`, `-5 to 15`):
    /// `; for a range write LOW:HIGH (-5:15)`, or nothing when `part` does not look like one.
    static func rangeHint(_ part: String) -> String {
        let text = part.trimmingCharacters(in: .whitespaces)
        for separator in ["...", "..", " to ", "~", "-"] {
            // The first character may be a sign, never a separator.
            guard text.count > 1,
                  let range = text.range(of: separator, range: text.index(after: text.startIndex)..<text.endIndex) else { continue }
            let low = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let high = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard let l = Double(low), let h = Double(high), l.isFinite, h.isFinite else { continue }
            return "; for a range write LOW:HIGH (\(low):\(high))"
        }
        return ""
    }

    /// Parses `text` for the option `name` (used in the error).
    /// - Throws: ``MixError/invalidOption(name:value:reason:)``.
    public init(parsing text: String, option name: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // A range has a colon that is not a leading sign: "-5:20", "-35:-15".
        if let colon = trimmed.firstIndex(of: ":") {
            let lowText = trimmed[..<colon], highText = trimmed[trimmed.index(after: colon)...]
            guard let low = Double(lowText.trimmingCharacters(in: .whitespaces)),
                  let high = Double(highText.trimmingCharacters(in: .whitespaces)),
                  low.isFinite, high.isFinite else {
                throw MixError.invalidOption(name: name, value: text, reason: "expected LOW:HIGH with two numbers")
            }
            guard low <= high else {
                throw MixError.invalidOption(name: name, value: text, reason: "range low \(low) is above high \(high)")
            }
            self = .uniform(low: low, high: high)
            return
        }
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        var values: [Double] = []
        for part in parts {
            guard let value = Double(part.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                throw MixError.invalidOption(name: name, value: text, reason: "'\(part)' is not a number" + Self.rangeHint(String(part)))
            }
            values.append(value)
        }
        guard !values.isEmpty else { throw MixError.invalidOption(name: name, value: text, reason: "empty") }
        self = .list(values)
    }

    /// Draws one value. Lists draw an index uniformly; ranges draw uniformly in [low, high].
    public func draw(using generator: inout some RandomNumberGenerator) -> Double {
        switch self {
        case .list(let values):
            return values.count == 1 ? values[0] : values[generator.nextIndex(below: values.count)]
        case .uniform(let low, let high):
            return generator.nextUniform(low, high)
        }
    }

    /// Smallest and largest value the spec can produce.
    public var bounds: ClosedRange<Double> {
        switch self {
        case .list(let values): values.min()!...values.max()!
        case .uniform(let low, let high): low...high
        }
    }

    public var description: String {
        switch self {
        case .list(let values): values.map { formatNumber($0) }.joined(separator: ",")
        case .uniform(let low, let high): "\(formatNumber(low)):\(formatNumber(high))"
        }
    }
}

/// Formats a number without a trailing ".0" for integers (for round-tripping specs as text).
func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

/// An integer range such as `--noises-per-clip 1:3` (inclusive) or a single value `2`.
public struct CountRange: Sendable, Equatable, Codable, CustomStringConvertible {
    public var low: Int
    public var high: Int

    public init(low: Int, high: Int) { self.low = low; self.high = high }

    public init(parsing text: String, option name: String, minimum: Int = 0) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...2).contains(parts.count), let low = Int(parts[0]), let high = Int(parts.last!) else {
            throw MixError.invalidOption(name: name, value: text, reason: "expected N or LOW:HIGH with whole numbers")
        }
        guard low <= high, low >= minimum else {
            throw MixError.invalidOption(name: name, value: text, reason: "needs \(minimum) <= LOW <= HIGH")
        }
        self.init(low: low, high: high)
    }

    public func draw(using generator: inout some RandomNumberGenerator) -> Int {
        low + generator.nextIndex(below: high - low + 1)
    }

    public var description: String { low == high ? "\(low)" : "\(low):\(high)" }
}

extension SNRSubsetRule {
    /// The rule for clips drawn from `specs` (the SNR, and the wind's SNR when wind noise is drawn):
    /// bands when any of them is a range wider than one value, one subset per value otherwise.
    public init(specs: [ValueSpec]) {
        let continuous = specs.contains { spec in
            if case let .uniform(low, high) = spec { return low < high }
            return false
        }
        self = continuous ? .bands5dB : .perValue
    }
}
