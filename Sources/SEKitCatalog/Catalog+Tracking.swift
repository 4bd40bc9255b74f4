import Foundation
import GRDB

/// What one `sekit runs log` call or one line of its `--jsonl` stream records into a running run:
/// metrics at a step, parameters, tags.
public struct RunLogEntry: Sendable, Equatable {
    /// The step of `metrics` (an epoch, an iteration), from 0; required when there are metrics.
    public var step: Int?
    /// Metric values at `step`, by key; every value must be finite.
    public var metrics: [String: Double]
    /// Parameters to add. A key the run has already keeps its value: the same value again is
    /// accepted, another one refused.
    public var params: [String: String]
    /// Tags to set (replacing a tag's earlier value).
    public var tags: [String: String]
    /// When the metrics were measured (the client's clock); nil: when they are recorded.
    public var time: Date?

    public init(step: Int? = nil, metrics: [String: Double] = [:], params: [String: String] = [:], tags: [String: String] = [:],
                time: Date? = nil) {
        self.step = step; self.metrics = metrics; self.params = params; self.tags = tags; self.time = time
    }

    /// Checks what needs no catalogue: a step for metrics and only with them, keys not empty, values finite.
    /// - Throws: ``CatalogError/invalidParameter(name:value:reason:)`` naming the metric, parameter or tag.
    public func validate() throws(CatalogError) {
        if let step, step < 0 { throw .invalidParameter(name: "step", value: "\(step)", reason: "a step is 0 or more") }
        if !metrics.isEmpty && step == nil {
            throw .invalidParameter(name: "step", value: "none", reason: "metrics are logged at a step; give one")
        }
        if metrics.isEmpty && step != nil {
            throw .invalidParameter(name: "metric", value: "none", reason: "a step without metrics; give at least one metric KEY=VALUE")
        }
        for (key, value) in metrics.sorted(by: { $0.key < $1.key }) {
            if key.isEmpty { throw .invalidParameter(name: "metric", value: "=\(value)", reason: "a metric needs a key") }
            guard value.isFinite else {
                throw .invalidParameter(name: "metric \(key)", value: "\(value)",
                                        reason: "not a finite number; metrics are finite values")
            }
        }
        for (name, values) in [("param", params), ("tag", tags)] where values.keys.contains("") {
            throw .invalidParameter(name: name, value: "=\(values[""]!)", reason: "a \(name) needs a key")
        }
    }

    /// Why ``validate()`` refuses the entry, or nil.
    public var validationError: CatalogError? {
        do {
            try validate()
            return nil
        } catch {
            return error
        }
    }

    /// Whether the entry records nothing.
    public var isEmpty: Bool { metrics.isEmpty && params.isEmpty && tags.isEmpty }
}

extension Catalog {
    /// Records `entries` into the running run `run` in one transaction, each entry all or nothing
    /// (a savepoint each): an entry that is refused leaves the others recorded.
    ///
    /// - A metric already logged at that step with the same value is accepted (a line sent again);
    ///   with another value it is refused. A parameter the run has with another value is refused.
    /// - Returns: per entry, nil when recorded, else why it was refused.
    /// - Throws: ``CatalogError/unknownRun(path:id:reason:)`` when the run is missing or not `running`
    ///   (nothing is recorded then); ``CatalogError`` when SQLite fails.
    public func log(_ entries: [RunLogEntry], to run: RunID) throws(CatalogError) -> [CatalogError?] {
        let path = url.path
        let invalid = entries.map(\.validationError)
        return try write { db in
            try Self.requireRunning(run, db, path: path, doing: "logs into")
            let now = Date()
            return try zip(entries, invalid).map { entry, invalid -> CatalogError? in
                if let invalid { return invalid }
                var refusal: CatalogError?
                try db.inSavepoint {
                    refusal = try Self.record(entry, run: run, now: now, db, path: path)
                    return refusal == nil ? .commit : .rollback
                }
                return refusal
            }
        }
    }

    /// Inserts one entry; returns why it is refused (its savepoint is then rolled back).
    private static func record(_ entry: RunLogEntry, run: RunID, now: Date, _ db: Database, path: String) throws -> CatalogError? {
        let time = entry.time ?? now
        if let step = entry.step {
            let insert = try db.cachedStatement(sql: """
                INSERT INTO run_step_metrics (run_id, key, step, value, time) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """)
            let existing = try db.cachedStatement(sql: "SELECT value FROM run_step_metrics WHERE run_id = ? AND key = ? AND step = ?")
            for (key, value) in entry.metrics.sorted(by: { $0.key < $1.key }) {
                try insert.execute(arguments: [run, key, step, value, time])
                // Not inserted: the step has a value already.
                if db.changesCount == 0, let logged = try Double.fetchOne(existing, arguments: [run, key, step]) {
                    if logged == value { continue }
                    return .invalidParameter(name: "metric \(key)", value: "\(value)",
                                             reason: "step \(step) of run \(run) has \(logged) already; a step is logged once")
                }
            }
        }
        for (key, value) in entry.params.sorted(by: { $0.key < $1.key }) {
            let sql = "SELECT value_text FROM params WHERE run_id = ? AND key = ?"
            if let current = try String.fetchOne(db, sql: sql, arguments: [run, key]) {
                if current == value { continue }
                return .invalidParameter(name: "param \(key)", value: value, reason: "run \(run) has \(key) = \(current) already; "
                                            + "a parameter keeps its value (use a tag for a label that changes)")
            }
            try ParamRecord(runID: run, key: key, value: value).insert(db)
        }
        for (key, value) in entry.tags.sorted(by: { $0.key < $1.key }) { try setTag(key, value, run: run, db) }
        return nil
    }

    /// Throws unless `run` exists and is `running`.
    package static func requireRunning(_ run: RunID, _ db: Database, path: String, doing: String) throws {
        guard let status = try RunStatus.fetchOne(db, sql: "SELECT status FROM runs WHERE id = ?", arguments: [run]) else {
            throw CatalogError.unknownRun(path: path, id: run.rawValue, reason: "no such run")
        }
        guard status == .running else {
            throw CatalogError.unknownRun(path: path, id: run.rawValue,
                                          reason: "is \(status.rawValue); `sekit runs` \(doing) a running run only")
        }
    }

    /// Inserts or replaces one tag (`run_tags` has no rowid, which GRDB's upsert reads back).
    private static func setTag(_ key: String, _ value: String, run: RunID, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO run_tags (run_id, key, value) VALUES (?, ?, ?) ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value
            """, arguments: [run, key, value])
    }

    /// Records a file or folder that the running run `run` produced: a file hashed (SHA-256) with
    /// its size, a folder by its path only (kind `folder` unless given).
    /// - Throws: ``CatalogError/file(path:reason:)`` when nothing is at `fileURL`;
    ///   ``CatalogError/unknownRun(path:id:reason:)`` when the run is not running.
    public func recordArtifactOfRunningRun(_ run: RunID, at fileURL: URL, kind: String?) throws(CatalogError) {
        let path = url.path
        try read { db in try Self.requireRunning(run, db, path: path, doing: "records artifacts of") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isFolder) else {
            throw .file(path: fileURL.path, reason: "no such file or folder; an artifact is recorded once it exists")
        }
        if isFolder.boolValue {
            try recordArtifact(ArtifactRecord(runID: run, path: fileURL.standardizedFileURL.path, kind: kind ?? "folder"))
        } else {
            try recordArtifact(run: run, fileAt: fileURL, kind: kind ?? "file")
        }
    }

    /// The per-step metrics of `run`, by key then step.
    public func stepMetrics(of run: RunID) throws(CatalogError) -> [StepMetricRecord] {
        try read { db in
            try StepMetricRecord.filter(StepMetricRecord.Columns.runID == run.rawValue)
                .order(StepMetricRecord.Columns.key, StepMetricRecord.Columns.step).fetchAll(db)
        }
    }

    /// The tags of `run`, by key.
    public func tags(of run: RunID) throws(CatalogError) -> [RunTagRecord] {
        try read { db in
            try RunTagRecord.filter(RunTagRecord.Columns.runID == run.rawValue).order(RunTagRecord.Columns.key).fetchAll(db)
        }
    }
}
