/// RFC 4180 CSV fields: the one escaper behind every CSV SEKit writes.
public enum CSVField {
    /// `text` as one CSV field: quoted (with `"` doubled) when it holds a comma, a quote, LF or CR;
    /// otherwise unchanged.
    public static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether UTF-8 bytes need quoting as a CSV field (for writers that copy bytes straight through).
    package static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }  // , " LF CR
    }

    /// One CSV line (without its line end) of `fields`, each escaped.
    public static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",")
    }
}

extension CSVField {
    /// The records of RFC 4180 text: fields split at commas, quoted fields unquoted (`""` is one
    /// quote, and a quoted field may hold commas and line breaks), records split at LF or CRLF.
    public static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field = ""
        var quoted = false, atFieldStart = true
        var characters = text.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? characters.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    let next = characters.next()
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else {
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"" where atFieldStart: quoted = true; atFieldStart = false
            case ",": record.append(field); field = ""; atFieldStart = true
            case "\n", "\r\n", "\r":
                record.append(field); records.append(record); record = []; field = ""; atFieldStart = true
            default: field.append(c); atFieldStart = false
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }
}
