import Foundation
import GRDB

/// A read or a transaction open on a catalogue, for work outside SEKitCatalog that must see one
/// state of it (or change it all or not at all): the caller makes named requests on it, never SQL.
/// Valid only during the `Catalog.reading(_:)` or `Catalog.writing(_:)` call that handed it over.
package struct CatalogSession {
    let db: Database
}

extension Catalog {
    /// Runs `body` in one read of the catalogue (one snapshot).
    package func reading<T>(_ body: (CatalogSession) throws -> T) throws(CatalogError) -> T {
        try read { db in try body(CatalogSession(db: db)) }
    }

    /// Runs `body` in one write transaction (rolled back when it throws).
    package func writing<T>(_ body: (CatalogSession) throws -> T) throws(CatalogError) -> T {
        try write { db in try body(CatalogSession(db: db)) }
    }
}

extension CatalogSession {
    /// The parameters of `run` (key → text).
    package func paramValues(of run: RunID) throws -> [String: String] {
        let rows = try ParamRecord.filter(ParamRecord.Columns.runID == run.rawValue).fetchAll(db)
        return Dictionary(rows.map { ($0.key, $0.valueText) }, uniquingKeysWith: { a, _ in a })
    }

    /// Replaces the stored aggregates (`run_metrics`) of `run` with `records`.
    package func replaceRunMetrics(of run: RunID, with records: [RunMetricRecord]) throws {
        try db.execute(sql: "DELETE FROM run_metrics WHERE run_id = ?", arguments: [run])
        for record in records { try record.insert(db) }
    }
}
