import Foundation
import GRDB

/// Output formats of catalogue listings.
public enum TableFormat: String, Sendable, CaseIterable, Codable {
    /// Aligned columns for reading in a terminal (buffers all rows to size the columns).
    case table
    /// RFC 4180 CSV with a header line, for pandas and spreadsheets.
    case csv
    /// A JSON array of objects; NULL is `null`, numbers are numbers.
    case json
}

/// A table cell.
public enum TableCell: Sendable, Equatable {
    case null, integer(Int64), real(Double), text(String)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let v): self = .integer(v)
        case .double(let v): self = .real(v)
        case .string(let v): self = .text(v)
        case .blob(let data): self = .text(data.base64EncodedString())
        }
    }

    /// The cell as plain text (empty for NULL).
    public var plain: String {
        switch self {
        case .null: ""
        case .integer(let v): String(v)
        case .real(let v): TableCell.format(v)
        case .text(let v): v
        }
    }

    /// Shortest round-tripping decimal form, without a trailing `.0` for whole numbers.
    static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}

/// Writes rows in a ``TableFormat``, streaming (except `table`, which must see every row to size
/// its columns), handing text to `sink` in chunks of about 64 KiB.
public struct TableWriter {
    public let columns: [String]
    public let format: TableFormat
    private let sink: (String) -> Void
    private var buffer = ""
    private var bufferedRows: [[TableCell]] = []
    private var rowCount = 0
    private var bytes: [UInt8] = []

    public init(columns: [String], format: TableFormat, sink: @escaping (String) -> Void) {
        self.columns = columns
        self.format = format
        self.sink = sink
        buffer.reserveCapacity(1 << 16)
        switch format {
        case .csv: buffer += columns.map(Self.csvField).joined(separator: ",") + "\n"
        case .json: buffer += "["
        case .table: break
        }
    }

    /// Appends one row (as many cells as columns).
    public mutating func append(_ row: [TableCell]) {
        switch format {
        case .table:
            bufferedRows.append(row)
        case .csv:
            for (index, cell) in row.enumerated() {
                if index > 0 { buffer += "," }
                buffer += Self.csvField(cell.plain)
            }
            buffer += "\n"
        case .json:
            buffer += rowCount == 0 ? "\n  {" : ",\n  {"
            for (index, cell) in row.enumerated() {
                if index > 0 { buffer += ", " }
                buffer += Self.jsonString(columns[index]) + ": "
                switch cell {
                case .null: buffer += "null"
                case .integer(let v): buffer += String(v)
                case .real(let v): buffer += v.isFinite ? "\(v)" : "null"
                case .text(let v): buffer += Self.jsonString(v)
                }
            }
            buffer += "}"
        }
        rowCount += 1
        if buffer.utf8.count >= 1 << 16 { sink(buffer); buffer.removeAll(keepingCapacity: true) }
    }

    /// How to read a column of a GRDB row quickly (the storage class the schema guarantees, or NULL).
    enum ColumnKind { case text, integer, real }

    /// Appends the current row of an SQLite cursor without building intermediate cells: for CSV,
    /// text is copied straight from SQLite's buffer (the hot path of `catalog clips --format csv`).
    mutating func append(row: Row, kinds: [ColumnKind]) {
        guard format == .csv else {
            append((0..<kinds.count).map { TableCell(row[$0] as DatabaseValue) })
            return
        }
        for index in 0..<kinds.count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if row.hasNull(atIndex: index) { continue }
            switch kinds[index] {
            case .integer:
                bytes.append(contentsOf: String(row[index] as Int64).utf8)
            case .real:
                let value = row[index] as Double
                if value == value.rounded(), abs(value) < 1e15 {
                    bytes.append(contentsOf: String(Int64(value)).utf8)
                } else {
                    bytes.append(contentsOf: value.description.utf8)
                }
            case .text:
                _ = try? row.withUnsafeData(atIndex: index) { data in
                    guard let data else { return }
                    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                        let text = raw.bindMemory(to: UInt8.self)
                        var needsQuotes = false
                        for byte in text where byte == 44 || byte == 34 || byte == 10 || byte == 13 {  // , " LF CR
                            needsQuotes = true
                            break
                        }
                        if needsQuotes {
                            bytes.append(contentsOf: Self.csvField(String(decoding: text, as: UTF8.self)).utf8)
                        } else {
                            bytes.append(contentsOf: text)
                        }
                    }
                }
            }
        }
        bytes.append(10)
        rowCount += 1
        if bytes.count >= 1 << 16 { flushBytes() }
    }

    private mutating func flushBytes() {
        guard !bytes.isEmpty else { return }
        buffer += String(decoding: bytes, as: UTF8.self)
        bytes.removeAll(keepingCapacity: true)
        sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what remains (the whole table, for `table`) and returns the number of rows.
    @discardableResult
    public mutating func finish() -> Int {
        if !bytes.isEmpty { buffer += String(decoding: bytes, as: UTF8.self); bytes.removeAll() }
        switch format {
        case .table:
            let text = bufferedRows.map { $0.map(\.plain) }
            var widths = columns.map(\.count)
            for row in text { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
            func line(_ cells: [String]) -> String {
                cells.enumerated().map { i, cell in cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
            }
            buffer += line(columns) + "\n" + line(widths.map { String(repeating: "-", count: $0) }) + "\n"
            for row in text { buffer += line(row) + "\n" }
        case .json:
            buffer += rowCount == 0 ? "]\n" : "\n]\n"
        case .csv:
            break
        }
        if !buffer.isEmpty { sink(buffer); buffer.removeAll() }
        return rowCount
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
