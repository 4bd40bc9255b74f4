/// RFC 4180 CSV fields: the one escaper behind every CSV SEKit writes.
public enum CSVField {
    /// `text` as one CSV field: quoted (with `"` doubled) when it holds a comma, a quote, LF or CR;
    /// otherwise unchanged.
    public static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether UTF-8 bytes need quoting as a CSV field (for writers that copy bytes straight through).
    static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }  // , " LF CR
    }

    /// One CSV line (without its line end) of `fields`, each escaped.
    public static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",")
    }
}
