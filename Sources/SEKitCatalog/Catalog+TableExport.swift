import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// Writes the rows of catalogue table `table` (`sekit runs export --table`), every column in the
    /// table's order, ordered by its primary key: the rows of the runs `filter` keeps, as the table
    /// declares (`CatalogTable.Export`: its run column, or its clips' runs); a table not tied to runs
    /// (listening tests, source analyses) is written whole and refuses a filter. Integers, reals and
    /// text keep their SQLite types (JSON numbers and strings; NULL as null or an empty CSV field).
    /// - Returns: the number of rows written.
    /// - Throws: `CatalogError.invalidParameter(name:value:reason:)` (`table`, `filter`) for a table
    ///   that is not the catalogue's or a filter on a whole table; filter errors; the database's.
    @discardableResult
    public func exportTable(_ table: String, filter: String?, format: TableFormat,
                            sink: @escaping (String) -> Void) throws(CatalogError) -> Int {
        guard let declaration = CatalogTable.named(table) else {
            throw .invalidParameter(name: "table", value: table,
                                    reason: "not a catalogue table; tables: \(CatalogTable.all.map(\.name).joined(separator: ", "))")
        }
        let compiled = try CatalogFilter.compile(filter, context: .runs)
        let runs = "SELECT runs.id FROM runs WHERE \(compiled.sql)"
        let condition: String
        switch declaration.export {
        case .ofRuns(let column): condition = "\"\(column)\" IN (\(runs))"
        case .ofClipsOfRuns(let column): condition = "\"\(column)\" IN (SELECT id FROM clips WHERE run_id IN (\(runs)))"
        case .whole:
            if let filter, !filter.allSatisfy(\.isWhitespace) {
                throw .invalidParameter(name: "filter", value: filter,
                                        reason: "\(table) is not tied to runs: it is written whole, without --filter")
            }
            condition = "1"
        }
        return try read { db in
            let columns = try db.columns(in: table).map(\.name)
            let key = try db.primaryKey(table).columns
            let order = key.map { "\"\($0)\"" }.joined(separator: ", ")
            var writer = TableWriter(columns: columns, format: format, sink: sink)
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) WHERE \(condition) ORDER BY \(order)",
                                           arguments: compiled.arguments)
            while let row = try rows.next() {
                writer.append(columns.indices.map { Self.cell(row[$0] as DatabaseValue) })
            }
            return writer.finish()
        }
    }

    /// A stored value as a table cell of its SQLite type.
    private static func cell(_ value: DatabaseValue) -> TableCell {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .text(data.base64EncodedString())
        }
    }
}
