import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// Merges shard catalogues (``merge(_:onConflict:)``) and, with `folding`, folds the N shard
    /// runs of each command (`params.shard` = `i/N`, run with `--shard i/N --catalog SHARD.sqlite`)
    /// into one run equal to the run of a single process:
    /// - the folded run has the id `RunID.folding(_:)` of the shard ids, the shards' kind, name,
    ///   SEKit version and folder, their earliest start and latest end, their hosts (comma-separated),
    ///   shard 1's pid, the command line without `--shard` and `--catalog`, and as parent the run
    ///   the shards' parent folded into (or their common parent);
    /// - its parameters are the shards' (equal in every shard), with the counts of each shard's own
    ///   items summed, lists joined in clip order, `shard` = `1/1`, and `folded_shards` = N and
    ///   `folded_runs` = the shard run ids (``ShardFoldRules``);
    /// - a mix's clips are re-keyed `FOLDED/CLIP` with their noises, degradations and every score
    ///   row naming them; sources the shards registered point to it; children, scores and artifacts
    ///   move to it; `audio_seconds` and what `folding` recomputes (SEKit's `ShardFolding.recomputingScores`:
    ///   a score run's `run_metrics`) are recomputed from the rows in clip order, by the same code as a
    ///   single process, so they are equal to the last bit. Without `folding` (nil) shard runs are copied
    ///   as they are.
    ///
    /// Everything is checked before anything is written: a shard missing or given twice, shards of
    /// different commands (other parameters, parent or SEKit version), an unfinished shard or the
    /// same file named twice is ``RunsError/shardMismatch(path:reason:)`` naming the file; what the
    /// catalogue refuses (an input that is no catalogue, conflicting rows) is ``RunsError/catalog(_:)``.
    /// Merging the same shards again adds nothing.
    public func merge(_ inputs: [URL], onConflict: MergeConflictPolicy = .error, folding: ShardFolding?)
        throws(RunsError) -> MergeReport {
        let prepared = try Self.prepareMergeInputs(inputs, output: url, foldShards: folding != nil)
        defer { prepared.forEach { $0.discard() } }
        return try mergeChecked(prepared, onConflict: onConflict, folding: folding)
    }

    /// Checks the inputs of a merge into `output` (``prepareMergeInputs(_:output:)``); when folding,
    /// an input named twice is refused first.
    static func prepareMergeInputs(_ inputs: [URL], output: URL, foldShards: Bool) throws(RunsError) -> [MergeInput] {
        let urls = inputs.map(\.standardizedFileURL)
        for (position, input) in urls.enumerated() where foldShards {
            if let earlier = urls[..<position].first(where: { $0.path == input.path || Self.sameFile($0, input) }) {
                throw .shardMismatch(path: input.path, reason: "is given twice (also as \(earlier.path))")
            }
        }
        do { return try prepareMergeInputs(urls, output: output) } catch { throw .catalog(error) }
    }

    /// ``merge(_:onConflict:folding:)`` of checked inputs.
    func mergeChecked(_ prepared: [MergeInput], onConflict: MergeConflictPolicy, folding: ShardFolding?) throws(RunsError) -> MergeReport {
        guard let folding else {
            do { return try merge(prepared, onConflict: onConflict, foldingRuns: [:]) } catch { throw .catalog(error) }
        }
        let runs: [ShardRun], existing: Set<RunID>
        do { (runs, existing) = try shardRunsToFold(prepared) } catch { throw .catalog(error) }
        let groups = try ShardFoldPlanner.plan(runs, existing: existing)

        var report: MergeReport
        do { report = try merge(prepared, onConflict: onConflict, folding: groups, with: folding) } catch { throw .catalog(error) }
        report.folded = groups.map {
            FoldedRunReport(id: $0.folded.id.rawValue, kind: $0.kind.rawValue, name: $0.folded.name, shards: $0.shards.count,
                            shardRuns: $0.shardIDs.map(\.rawValue), supersededAttempts: $0.superseded.map(\.record.id.rawValue),
                            new: !$0.alreadyFolded)
        }
        return report
    }

    /// Merges `prepared`, folding the shard runs of `groups`: the folded runs first (`running` until
    /// complete); every input's shard rows are then copied under them; the last transaction completes
    /// them. A merge that fails marks the folded runs failed.
    private func merge(_ prepared: [MergeInput], onConflict: MergeConflictPolicy, folding groups: [ShardFoldGroup],
                       with folding: ShardFolding) throws(CatalogError) -> MergeReport {
        try write { db in for group in groups { try Self.beginFold(group, db) } }
        let foldingRuns = Dictionary(uniqueKeysWithValues: groups.flatMap { group in group.foldedAwayIDs.map { ($0, group.folded.id) } })
        do {
            let report = try merge(prepared, onConflict: onConflict, foldingRuns: foldingRuns)
            try write { db in
                try db.execute(sql: "PRAGMA main.cache_size = \(Self.mergeCacheKiB)")
                for group in groups {
                    try Self.finishFold(group, db)
                    try Self.recomputeFoldedValues(group, db, folding)
                }
            }
            return report
        } catch {
            try? write { db in try Self.failFolds(groups, error: "\(error)", db) }
            throw error
        }
    }

    /// The shard runs a fold considers, in id order: those already here unfolded (an earlier merge
    /// with foldShards false) and those of every input; and the runs finished here (folds an earlier
    /// merge completed; one it began but did not complete is taken up again).
    private func shardRunsToFold(_ prepared: [MergeInput]) throws(CatalogError) -> (runs: [ShardRun], existing: Set<RunID>) {
        var byID: [RunID: ShardRun] = [:]
        for run in try read({ db in try Self.shardRuns(db, file: url.path) }) { byID[run.record.id] = run }
        for input in prepared {
            let catalog = try Catalog.openForReading(at: input.readURL)
            for run in try catalog.read({ db in try Self.shardRuns(db, file: input.url.path) }) where byID[run.record.id] == nil {
                byID[run.record.id] = run
            }
        }
        let existing = Set(try read { db in try String.fetchAll(db, sql: "SELECT id FROM runs WHERE status = 'finished'") }.map(RunID.init))
        return (byID.values.sorted { $0.record.id.rawValue < $1.record.id.rawValue }, existing)
    }

    /// Merges into a catalogue that does not exist yet (`merge(_:onConflict:folding:)`): it is
    /// built under a temporary name in the same folder (`AtomicFile.temporaryURL(for:)`) with its rollback journal
    /// in memory and no syncs until the end, then switched to WAL, synced and renamed to `url`, so
    /// every page is written once (about half the time of a merge into an existing file) and OUT
    /// appears only complete. The inputs are checked first: a merge refused before anything is
    /// merged (an input missing, empty or not a catalogue, a shard mismatch, the first input's
    /// conflicts) leaves no file; an input refused for conflicts leaves the inputs merged before it,
    /// as always. A merge that fails writing (a full disk) removes its temporary file.
    public static func mergeIntoNew(at url: URL, _ inputs: [URL], onConflict: MergeConflictPolicy = .error,
                                    folding: ShardFolding?) throws(RunsError) -> MergeReport {
        let url = url.standardizedFileURL
        let folder = url.deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw .file(path: folder.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let prepared = try prepareMergeInputs(inputs, output: url, foldShards: folding != nil)
        defer { prepared.forEach { $0.discard() } }
        AtomicFile.removeStaleTemporaries(in: folder, named: url.lastPathComponent)
        let temporary = AtomicFile.temporaryURL(for: url)
        let catalog: Catalog
        do { catalog = try createForBulkBuild(at: temporary) } catch { throw .catalog(error) }
        func discard() {
            try? catalog.database.close()
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temporary.path + suffix) }
        }
        func commit() throws(RunsError) {
            do { try catalog.finishBulkBuild() } catch {
                discard()
                throw .catalog(error)
            }
            guard !FileManager.default.fileExists(atPath: url.path) else {
                discard()
                throw .invalidParameter(name: "OUT", value: url.path,
                                        reason: "was created by another process during the merge; merge into it again")
            }
            do { try AtomicFile.commit(temporary, to: url) } catch {
                discard()
                throw .file(path: url.path, reason: "\(error)")
            }
        }
        let report: MergeReport
        do {
            report = try catalog.mergeChecked(prepared, onConflict: onConflict, folding: folding)
        } catch {
            // Inputs merged before the one refused are kept; nothing merged leaves nothing.
            let merged = try? catalog.read { db in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM runs) OR EXISTS (SELECT 1 FROM sources)")
            }
            if merged == true {
                try? commit()
            } else {
                discard()
            }
            throw naming(error, temporary, as: url)
        }
        do { try commit() } catch { throw naming(error, temporary, as: url) }
        return report
    }

    /// `error` with the temporary file of a merge into a new catalogue named as the output it stands for.
    private static func naming(_ error: RunsError, _ temporary: URL, as output: URL) -> RunsError {
        func named(_ text: String) -> String { text.replacingOccurrences(of: temporary.path, with: output.path) }
        switch error {
        case let .catalog(.database(path, reason)): return .catalog(.database(path: named(path), reason: named(reason)))
        case let .catalog(.file(path, reason)): return .catalog(.file(path: named(path), reason: named(reason)))
        case let .file(path, reason): return .file(path: named(path), reason: named(reason))
        default: return error
        }
    }

    /// The folded run's values computed from its rows: a mix's `audio_seconds` (its clips'
    /// durations summed in clip order), then what `folding` recomputes (a score run's aggregates).
    private static func recomputeFoldedValues(_ group: ShardFoldGroup, _ db: Database, _ folding: ShardFolding) throws {
        let id = group.folded.id
        switch group.kind {
        case .mix:
            let durations = try Double.fetchAll(db, sql: "SELECT duration_seconds FROM clips WHERE run_id = ? ORDER BY clip_index",
                                                arguments: [id])
            try ParamRecord(runID: id, key: "audio_seconds", value: "\(durations.reduce(0, +))").upsert(db)
        default:
            break
        }
        try folding.recompute(group.kind, id, CatalogSession(db: db))
    }
}
