import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// Starts a run: inserts it as `running` with its command line, parameters, tool version, host and pid.
    ///
    /// Runs of the same kind and command line left `running` on this host by a process that no
    /// longer exists are marked `failed` first (a killed earlier attempt of the same command).
    /// - Parameters:
    ///   - kind: what the run does.
    ///   - name: free-form name (a corpus, a model); may be empty.
    ///   - commandLine: the arguments, `argv[0]` first; stored shell-quoted.
    ///   - params: parameters; values that spell finite numbers are also stored as numbers.
    ///   - parent: the run this one derives from (a score run's enhance run, a features run's mix run).
    ///   - tags: labels of the run (`run_tags`).
    ///   - pid: the process the run belongs to on this host (default: this one); a run made elsewhere
    ///     (`sekit runs start`) belongs to the script that logs into it, and is abandoned when that is gone.
    /// - Returns: the new run's id (a UUID, unique across machines).
    /// - Throws: ``CatalogError`` if the parent does not exist or SQLite fails.
    @discardableResult
    public func beginRun(kind: RunKind, name: String = "", commandLine: [String], params: [String: String] = [:],
                         parent: RunID? = nil, tags: [String: String] = [:], pid: Int? = nil) throws(CatalogError) -> RunID {
        let id = RunID.make()
        let process = ProcessInfo.processInfo
        let record = RunRecord(
            id: id, kind: kind, name: name, status: .running, startedAt: Date(), finishedAt: nil,
            toolVersion: SEKitVersion.string, commandLine: Self.shellQuoted(commandLine),
            workingDirectory: FileManager.default.currentDirectoryPath, host: process.hostName,
            pid: pid ?? Int(process.processIdentifier), parentID: parent, error: nil)
        try markAbandonedRuns(kind: kind, commandLine: record.commandLine)
        let path = url.path
        try write { db in
            if let parent, try RunRecord.fetchOne(db, key: parent.rawValue) == nil {
                throw CatalogError.unknownRun(path: path, id: parent.rawValue, reason: "parent run not found")
            }
            try record.insert(db)
            for (key, value) in params.sorted(by: { $0.key < $1.key }) {
                try ParamRecord(runID: id, key: key, value: value).insert(db)
            }
            for (key, value) in tags.sorted(by: { $0.key < $1.key }) {
                try RunTagRecord(runID: id, key: key, value: value).insert(db)
            }
        }
        return id
    }

    /// Ends a running run with `status` (`finished` or `failed`) and, for failures, the reason.
    /// - Throws: ``CatalogError/unknownRun(path:id:reason:)`` if the run does not exist or is not running.
    public func finishRun(_ id: RunID, status: RunStatus = .finished, error: String? = nil) throws(CatalogError) {
        guard status != .running else {
            throw .invalidParameter(name: "status", value: status.rawValue, reason: "a run is finished as 'finished' or 'failed'")
        }
        let path = url.path
        try write { db in
            guard var run = try RunRecord.fetchOne(db, key: id.rawValue) else {
                throw CatalogError.unknownRun(path: path, id: id.rawValue, reason: "no such run")
            }
            guard run.status == .running else {
                throw CatalogError.unknownRun(path: path, id: id.rawValue, reason: "already \(run.status.rawValue)")
            }
            run.status = status
            run.finishedAt = Date()
            run.error = error
            try run.update(db)
        }
    }

    /// Takes up an earlier run again (a resumed mix): sets it `running` under this process, clears
    /// its end time and error. Used when an interrupted or repeated command continues the same work,
    /// so its outputs stay under one run.
    /// - Returns: false when the catalogue has no such run (then begin a new one).
    /// - Throws: ``CatalogError/unknownRun(path:id:reason:)`` when the run is `running` under a
    ///   process that is still alive on this host (the same work is being done right now).
    @discardableResult
    public func reopenRun(_ id: RunID) throws(CatalogError) -> Bool {
        let path = url.path
        let process = ProcessInfo.processInfo
        let me = Int(process.processIdentifier)
        return try write { db in
            guard var run = try RunRecord.fetchOne(db, key: id.rawValue) else { return false }
            if run.status == .running && run.host == process.hostName && run.pid != me && ProcessProbe.isAlive(pid: run.pid) {
                throw CatalogError.unknownRun(path: path, id: id.rawValue,
                                              reason: "still running as process \(run.pid) on \(run.host)")
            }
            run.status = .running
            run.finishedAt = nil
            run.error = nil
            run.host = process.hostName
            run.pid = me
            try run.update(db)
            return true
        }
    }

    /// Adds or replaces parameters of a run.
    public func setParams(_ params: [String: String], of run: RunID) throws(CatalogError) {
        try write { db in
            for (key, value) in params.sorted(by: { $0.key < $1.key }) {
                try ParamRecord(runID: run, key: key, value: value).upsert(db)
            }
        }
    }

    /// The run with id `idOrPrefix`, or the only run whose id starts with it.
    /// - Throws: ``CatalogError/unknownRun(path:id:reason:)`` when none or several match.
    public func run(_ idOrPrefix: String) throws(CatalogError) -> RunRecord {
        let path = url.path
        return try read { db in
            if let run = try RunRecord.fetchOne(db, key: idOrPrefix) { return run }
            guard !idOrPrefix.isEmpty else { throw CatalogError.unknownRun(path: path, id: idOrPrefix, reason: "empty id") }
            let matches = try RunRecord.filter(RunRecord.Columns.id.like(Self.likePrefix(idOrPrefix), escape: "\\")).limit(2).fetchAll(db)
            guard matches.count == 1 else {
                throw CatalogError.unknownRun(path: path, id: idOrPrefix,
                                              reason: matches.isEmpty ? "no such run" : "prefix matches several runs; give more characters")
            }
            return matches[0]
        }
    }

    /// Runs matching a filter expression (see ``CatalogFilter``), newest first.
    /// - Parameters:
    ///   - filter: e.g. `kind = 'score' and metrics.stoi.mean > 0.8`; nil for all runs.
    ///   - limit: at most this many runs; nil for all.
    public func runs(filter: String? = nil, limit: Int? = nil) throws(CatalogError) -> [RunRecord] {
        let compiled = try CatalogFilter.compile(filter, context: .runs)
        return try read { db in
            var sql = "SELECT runs.* FROM runs WHERE \(compiled.sql) ORDER BY started_at DESC, id"
            if let limit { sql += " LIMIT \(max(0, limit))" }
            return try RunRecord.fetchAll(db, sql: sql, arguments: compiled.arguments)
        }
    }

    /// Everything recorded about one run.
    public struct RunDetails: Sendable, Codable {
        public var run: RunRecord
        public var params: [ParamRecord]
        public var artifacts: [ArtifactRecord]
        public var metrics: [RunMetricRecord]
        /// Clips the run made (a mix's rows in `clips`).
        public var clipCount: Int
        /// Per-clip values the run scored (`clip_scores` rows: clips × metrics).
        public var clipScoreCount: Int
        /// Distinct clips the run scored; nil for a run that scored none (so other runs' JSON is unchanged).
        public var scoredClipCount: Int?
        public var sourceCount: Int
        public var children: [RunID]
        /// The run's tags (`run_tags`), by key; nil when it has none (so older runs' JSON is unchanged).
        public var tags: [RunTagRecord]?
        /// The run's per-step metrics (`run_step_metrics`), one series per key; nil when it has none.
        public var series: [StepSeries]?
    }

    /// Details of the run `reference`: an id, a unique id prefix or a name (see ``resolveRun(_:kind:preferring:)``).
    public func runDetails(_ reference: String) throws(CatalogError) -> RunDetails {
        let run = try resolveRun(reference)
        let id = run.id.rawValue
        return try read { db in
            RunDetails(
                run: run,
                params: try ParamRecord.filter(ParamRecord.Columns.runID == id).order(ParamRecord.Columns.key).fetchAll(db),
                artifacts: try ArtifactRecord.filter(ArtifactRecord.Columns.runID == id).order(ArtifactRecord.Columns.path).fetchAll(db),
                metrics: try RunMetricRecord.filter(RunMetricRecord.Columns.runID == id)
                    .order(RunMetricRecord.Columns.metric, RunMetricRecord.Columns.subset).fetchAll(db),
                clipCount: try Int.fetchOne(db, sql: "SELECT count(*) FROM clips WHERE run_id = ?", arguments: [id]) ?? 0,
                clipScoreCount: try Int.fetchOne(db, sql: "SELECT count(*) FROM clip_scores WHERE run_id = ?", arguments: [id]) ?? 0,
                scoredClipCount: try Int.fetchOne(db, sql: "SELECT count(DISTINCT clip_id) FROM clip_scores WHERE run_id = ?",
                                                  arguments: [id]).flatMap { $0 > 0 ? $0 : nil },
                sourceCount: try Int.fetchOne(db, sql: "SELECT count(*) FROM sources WHERE import_run_id = ?", arguments: [id]) ?? 0,
                children: try RunID.fetchAll(db, sql: "SELECT id FROM runs WHERE parent_id = ? ORDER BY started_at", arguments: [id]),
                tags: try RunTagRecord.filter(RunTagRecord.Columns.runID == id).order(RunTagRecord.Columns.key).fetchAll(db).nilIfEmpty,
                series: try StepSeries.all(of: run.id, db).nilIfEmpty)
        }
    }

    /// Marks `failed` the runs left `running` on this host whose process is gone; with `kind` and
    /// `commandLine`, only those of that command (the same arguments but for `--jobs`, which does
    /// not change what a command produces). A fold that a `catalog merge` began
    /// (``foldingKey``) belongs to the merging process. Returns the runs marked.
    @discardableResult
    func markAbandonedRuns(kind: RunKind? = nil, commandLine: String? = nil, dryRun: Bool = false) throws(CatalogError) -> [RunRecord] {
        let host = ProcessInfo.processInfo.hostName
        let me = Int(ProcessInfo.processInfo.processIdentifier)
        var request = RunRecord.filter(RunRecord.Columns.status == RunStatus.running.rawValue)
        if let kind { request = request.filter(RunRecord.Columns.kind == kind.rawValue) }
        let work = commandLine.map(Self.workIdentity)
        let find = { (db: Database) throws -> [(run: RunRecord, merge: (host: String, pid: Int)?)] in
            let folding = try Self.foldingProcesses(db)
            return try request.fetchAll(db).compactMap { run in
                if let commandLine, run.commandLine != commandLine, Self.workIdentity(run.commandLine) != work { return nil }
                let owner = folding[run.id] ?? (run.host, run.pid)
                guard owner.host == host, owner.pid != me, !ProcessProbe.isAlive(pid: owner.pid) else { return nil }
                return (run, folding[run.id])
            }
        }
        // A dry run only reads (it works on a catalogue opened for reading).
        if dryRun { return try read(find).map(\.run) }
        return try write { db in
            let abandoned = try find(db)
            let now = Date()
            return try abandoned.map { item in
                var run = item.run
                run.status = .failed
                run.finishedAt = now
                let marker = commandLine == nil ? "catalog check" : "a later run of the same command"
                if let merge = item.merge {
                    run.error = "abandoned: the catalog merge folding it (process \(merge.pid) on \(merge.host)) is gone "
                        + "before the fold completed (marked by \(marker)); run the same merge again to complete it"
                    try db.execute(sql: "DELETE FROM params WHERE run_id = ? AND key = ?", arguments: [run.id, Self.foldingKey])
                } else {
                    run.error = "abandoned: process \(run.pid) on \(host) is gone (marked by \(marker))"
                }
                try run.update(db)
                return run
            }
        }
    }

    /// The parameter marking a folded run whose merge is under way: the merging process, `HOST:PID`.
    /// Removed when the fold completes.
    package static let foldingKey = "folding_by"

    /// This process as ``foldingKey`` records it.
    package static var foldingProcess: String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// The merging process (host, pid) of every fold under way (``foldingKey``).
    package static func foldingProcesses(_ db: Database) throws -> [RunID: (host: String, pid: Int)] {
        var owners: [RunID: (host: String, pid: Int)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT run_id, value_text FROM params WHERE key = ?", arguments: [foldingKey]) {
            let value: String = row[1]
            guard let colon = value.lastIndex(of: ":"), let pid = Int(value[value.index(after: colon)...]) else { continue }
            owners[RunID(row[0])] = (String(value[..<colon]), pid)
        }
        return owners
    }

    /// A stored command line without its `--jobs` argument: two runs with the same identity do the
    /// same work (a command killed and run again with another `--jobs`).
    package static func workIdentity(_ commandLine: String) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for word in Self.shellWords(commandLine) {
            if skipNext { skipNext = false; continue }
            if word == "--jobs" { skipNext = true; continue }
            if word.hasPrefix("--jobs=") { continue }
            kept.append(word)
        }
        return kept
    }

    /// Arguments joined into one shell-pasteable line (single quotes where needed).
    package static func shellQuoted(_ arguments: [String]) -> String {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./=:@%+,")
        return arguments.map { argument in
            if !argument.isEmpty && argument.allSatisfy({ safe.contains($0) }) { return argument }
            return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// The arguments of a line written by `shellQuoted` (words, `'…'` quoting, `'\''`).
    package static func shellWords(_ line: String) -> [String] {
        var words: [String] = [], word = "", inWord = false, quoted = false, escaped = false
        for character in line {
            if escaped { word.append(character); escaped = false; continue }
            if quoted {
                if character == "'" { quoted = false } else { word.append(character) }
            } else if character == "'" {
                quoted = true; inWord = true
            } else if character == "\\" {
                escaped = true; inWord = true
            } else if character == " " {
                if inWord { words.append(word); word = ""; inWord = false }
            } else {
                word.append(character); inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// A LIKE pattern matching strings that start with `prefix` literally (escape character `\`).
    package static func likePrefix(_ prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
