import Foundation
import GRDB

extension Catalog {
    /// Tables in the order a merge copies them (parents before children, for the foreign keys).
    static let mergeOrder = ["runs", "params", "sources", "clips", "clip_noises", "artifacts", "clip_scores", "run_metrics"]

    /// What a merge copied.
    public struct MergeReport: Sendable, Codable {
        /// Per input file: rows inserted per table.
        public var inserted: [String: [String: Int]] = [:]
        /// Runs that were `running` in the output and are finished or failed in an input, updated.
        public var runsCompleted = 0
        /// Total rows inserted.
        public var totalInserted: Int { inserted.values.flatMap(\.values).reduce(0, +) }
    }

    /// Merges shard catalogues into this one: every row whose key is not present yet is copied;
    /// rows already present are kept (ids are UUIDs and mixer-given clip ids, so shards never collide),
    /// except that a run still `running` here takes the final status an input has for it.
    /// Merging the same input twice adds nothing. Each input is merged in one transaction.
    /// - Parameter inputs: shard catalogues; each is opened (and migrated) like any catalogue first.
    /// - Throws: ``CatalogError`` naming the input that is missing, corrupt, newer, or violates a constraint.
    public func merge(_ inputs: [URL]) throws(CatalogError) -> MergeReport {
        var report = MergeReport()
        for input in inputs {
            let inputURL = input.standardizedFileURL
            guard inputURL.path != url.path else {
                throw .invalidParameter(name: "IN", value: inputURL.path, reason: "is the output catalogue")
            }
            // Validates and migrates the input, then releases it.
            _ = try Catalog.open(at: inputURL, create: false)
            let counts: [String: Int]
            var completed = 0
            do {
                counts = try writeWithoutTransaction { db in
                    try db.execute(sql: "ATTACH DATABASE ? AS shard", arguments: [inputURL.path])
                    defer { try? db.execute(sql: "DETACH DATABASE shard") }
                    var counts: [String: Int] = [:]
                    try db.inTransaction(.immediate) {
                        for table in Self.mergeOrder {
                            let columns = try db.columns(in: table).map { "\"\($0.name)\"" }.joined(separator: ", ")
                            try db.execute(sql: """
                                INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM shard.\(table) WHERE true
                                ON CONFLICT DO NOTHING
                                """)
                            counts[table] = db.changesCount
                        }
                        try db.execute(sql: """
                            UPDATE main.runs SET status = s.status, finished_at = s.finished_at, error = s.error
                            FROM shard.runs AS s
                            WHERE main.runs.id = s.id AND main.runs.status = 'running' AND s.status != 'running'
                            """)
                        completed = db.changesCount
                        return .commit
                    }
                    return counts
                }
            } catch {
                throw .database(path: inputURL.path, reason: "merging into \(url.path) failed: \(error)")
            }
            report.inserted[inputURL.path] = counts
            report.runsCompleted += completed
        }
        return report
    }
}
