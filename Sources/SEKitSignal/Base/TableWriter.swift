import Foundation

/// Output formats of catalogue listings.
public enum TableFormat: String, Sendable, CaseIterable, Codable {
    /// Aligned columns for reading in a terminal (buffers all rows to size the columns).
    case table
    /// RFC 4180 CSV with a header line, for pandas and spreadsheets.
    case csv
    /// A JSON array of objects; NULL is `null`, numbers are numbers, and numbers JSON cannot hold
    /// are the strings `"inf"`, `"-inf"` and `"nan"`, as in every SEKit JSON (`ReportJSON`).
    case json
}

/// A table cell.
public enum TableCell: Sendable, Equatable {
    case null, integer(Int64), real(Double), text(String)
    /// An unsigned 64-bit integer (a clip seed), printed as its unsigned decimal.
    case unsignedInteger(UInt64)

    /// The cell as plain text (empty for NULL).
    public var plain: String {
        switch self {
        case .null: ""
        case .integer(let v): String(v)
        case .unsignedInteger(let v): String(v)
        case .real(let v): TableCell.format(v)
        case .text(let v): v
        }
    }

    /// Shortest round-tripping decimal form, without a trailing `.0` for whole numbers.
    package static func format(_ v: Double) -> String {
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
    package var rowCount = 0
    /// UTF-8 of CSV rows appended by a fast path, not yet moved into `buffer`.
    package var bytes: [UInt8] = []

    public init(columns: [String], format: TableFormat, sink: @escaping (String) -> Void) {
        self.columns = columns
        self.format = format
        self.sink = sink
        buffer.reserveCapacity(1 << 16)
        switch format {
        case .csv: buffer += CSVField.line(columns) + "\n"
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
                buffer += CSVField.escape(cell.plain)
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
                case .unsignedInteger(let v): buffer += String(v)
                case .real(let v): buffer += v.isFinite ? "\(v)" : "\"\(ReportNumber.fixed(v, decimals: 0))\""
                case .text(let v): buffer += Self.jsonString(v)
                }
            }
            buffer += "}"
        }
        rowCount += 1
        if buffer.utf8.count >= 1 << 16 { sink(buffer); buffer.removeAll(keepingCapacity: true) }
    }

    /// Moves bytes gathered by a fast path (SEKitCatalog's `append(row:kinds:)`) into the text buffer and hands
    /// it to the sink.
    package mutating func flushBytes() {
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
            buffer += TextTable.render(header: columns, rows: bufferedRows.map { $0.map(\.plain) }, alignment: .left)
        case .json:
            buffer += rowCount == 0 ? "]\n" : "\n]\n"
        case .csv:
            break
        }
        if !buffer.isEmpty { sink(buffer); buffer.removeAll() }
        return rowCount
    }

    package static func jsonString(_ text: String) -> String {
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
