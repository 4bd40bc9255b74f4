import Foundation

/// The one JSON configuration of SEKit's reports (`--format json`, `--json`): sorted keys (so the
/// bytes depend only on the values), slashes unescaped (paths stay readable), ISO 8601 dates, and
/// non-finite numbers as the strings `"inf"`, `"-inf"` and `"nan"` (JSON has no such numbers).
public enum ReportJSON {
    /// Layout of the encoded text.
    public enum Style: Sendable {
        /// Indented, one member a line (summaries and reports).
        case pretty
        /// One line (records printed one a line, such as `sekit info --format json`).
        case compact
    }

    /// A new encoder with the report configuration.
    public static func encoder(_ style: Style = .pretty) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = style == .pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                                                    : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// `value` encoded with ``encoder(_:)``.
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    public static func data<T: Encodable>(_ value: T, style: Style = .pretty) throws -> Data {
        try encoder(style).encode(value)
    }

    /// `value` encoded with ``encoder(_:)`` as text, followed by a newline.
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    public static func text<T: Encodable>(_ value: T, style: Style = .pretty) throws -> String {
        String(decoding: try data(value, style: style), as: UTF8.self) + "\n"
    }
}
