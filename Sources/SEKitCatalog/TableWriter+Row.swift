import Foundation
import SEKitSignal
import GRDB

extension TableCell {
    /// The cell holding an SQLite value (a BLOB as base64 text).
    package init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let v): self = .integer(v)
        case .double(let v): self = .real(v)
        case .string(let v): self = .text(v)
        case .blob(let data): self = .text(data.base64EncodedString())
        }
    }
}

extension TableWriter {
    /// How to read a column of a GRDB row quickly (the storage class the schema guarantees, or NULL).
    /// `unsignedInteger`: an INTEGER holding the bit pattern of a `UInt64` (a clip seed).
    package enum ColumnKind { case text, integer, unsignedInteger, real }

    /// Appends the current row of an SQLite cursor without building intermediate cells: for CSV,
    /// text is copied straight from SQLite's buffer (the hot path of `catalog clips --format csv`).
    package mutating func append(row: Row, kinds: [ColumnKind]) {
        guard format == .csv else {
            append((0..<kinds.count).map { index in
                let value = row[index] as DatabaseValue
                if kinds[index] == .unsignedInteger,
                        case .int64(let bits) = value.storage { return .unsignedInteger(UInt64(bitPattern: bits)) }
                return TableCell(value)
            })
            return
        }
        for index in 0..<kinds.count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if row.hasNull(atIndex: index) { continue }
            switch kinds[index] {
            case .integer:
                bytes.append(contentsOf: String(row[index] as Int64).utf8)
            case .unsignedInteger:
                bytes.append(contentsOf: String(UInt64(bitPattern: row[index] as Int64)).utf8)
            case .real:
                bytes.append(contentsOf: TableCell.format(row[index] as Double).utf8)
            case .text:
                _ = try? row.withUnsafeData(atIndex: index) { data in
                    guard let data else { return }
                    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                        let text = raw.bindMemory(to: UInt8.self)
                        if CSVField.needsQuotes(text) {
                            bytes.append(contentsOf: CSVField.escape(String(decoding: text, as: UTF8.self)).utf8)
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
}
