import Foundation
import SEKitSignal

/// A shard run (`params.shard` = `i/N`, N > 1) as the fold sees it: the run, its parameters, and
/// the catalogue file it comes from (named in errors).
public struct ShardRun: Sendable {
    public var record: RunRecord
    public var params: [String: String]
    public var shard: Shard
    /// The shard catalogue the run was read from.
    public var file: String

    /// The run's shard, or nil for a run that is not one of several shards.
    static func shard(of params: [String: String]) -> Shard? {
        guard let text = params["shard"], let shard = try? Shard(parsing: text), shard.count > 1 else { return nil }
        return shard
    }
}

/// N shard runs of one command and the run they fold into.
public struct ShardFoldGroup: Sendable {
    /// The shard runs, shard 1 first.
    public var shards: [ShardRun]
    /// Failed or killed attempts of shards that a later run of the same shard finished: they fold
    /// away with the group (not part of the folded run's identity or parameters).
    public var superseded: [ShardRun] = []
    /// The folded run (`RunID.folding(_:)` of the shard ids), `finished`, its parent already mapped.
    public var folded: RunRecord
    /// The folded run's parameters (``ShardFoldRules``), without the recomputed ones.
    public var params: [String: String]
    /// Whether the output catalogue holds the folded run already (an earlier merge folded these
    /// shards): the shards' rows copied again are then dropped.
    public var alreadyFolded: Bool

    public var kind: RunKind { folded.kind }
    public var shardIDs: [RunID] { shards.map(\.record.id) }
    /// Every run the group folds away: the shards and the superseded attempts.
    public var foldedAwayIDs: [RunID] { shardIDs + superseded.map(\.record.id) }
}

/// Plans the fold of shard runs before anything is written, so that a mismatch refuses the merge
/// with the shard catalogue at fault named and the output untouched.
public enum ShardFoldPlanner {
    /// Groups shard runs into commands and checks every group is whole.
    /// - Parameters:
    ///   - runs: the shard runs of every input (a run present in several inputs once).
    ///   - folded: ids of runs the output already holds (an earlier fold's runs).
    /// - Returns: the groups in lineage order (mix before features before score, ...).
    /// - Throws: ``RunsError/shardMismatch(path:reason:)``.
    public static func plan(_ runs: [ShardRun], existing: Set<RunID>) throws(RunsError) -> [ShardFoldGroup] {
        var groups: [ShardFoldGroup] = []
        var mapped: [RunID: RunID] = [:]
        for run in runs where !ShardFoldRules.foldableKinds.contains(run.record.kind) {
            throw .shardMismatch(path: run.file,
                                 reason: "run \(run.record.id) is a \(run.record.kind.rawValue) run with shard \(run.shard): "
                                     + "only \(ShardFoldRules.foldableKinds.map(\.rawValue).joined(separator: ", ")) runs fold")
        }
        for kind in ShardFoldRules.foldableKinds {
            var byIdentity: [String: [ShardRun]] = [:]
            for run in runs where run.record.kind == kind {
                byIdentity[identity(of: run, parent: run.record.parentID.map { mapped[$0] ?? $0 }), default: []].append(run)
            }
            let candidates = byIdentity.sorted { $0.key < $1.key }.map(\.value)
            for members in candidates {
                let group = try makeGroup(members, others: candidates, mapped: mapped, existing: existing)
                for id in group.foldedAwayIDs { mapped[id] = group.folded.id }
                groups.append(group)
            }
        }
        return groups
    }

    /// What makes shard runs one command: kind, shard count, SEKit version, parent (after folding)
    /// and every parameter that must be equal.
    static func identity(of run: ShardRun, parent: RunID?) -> String {
        let equal = run.params.filter { ShardFoldRules.combination(of: $0.key, kind: run.record.kind) == .equal }
        return ([run.record.kind.rawValue, "\(run.shard.count)", run.record.toolVersion, parent?.rawValue ?? ""]
                + equal.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: "\u{1F}")
    }

    private static func makeGroup(_ members: [ShardRun], others: [[ShardRun]], mapped: [RunID: RunID],
                                  existing: Set<RunID>) throws(RunsError) -> ShardFoldGroup {
        let first = members.min { $0.shard.index < $1.shard.index }!
        let count = first.shard.count
        var byIndex: [Int: ShardRun] = [:]
        // A shard run again after a failure leaves the failed (or killed) attempt beside the finished
        // one: the finished run is the shard and the attempt folds away with it (its rows, if any,
        // go to the folded run). Without a finished run, the latest attempt stands for the shard.
        var attempts: [ShardRun] = [], superseded: [ShardRun] = []
        for index in Set(members.map(\.shard.index)).sorted() {
            let runs = members.filter { $0.shard.index == index }
            let finished = runs.filter { $0.record.status == .finished }
            let kept = finished.isEmpty ? [runs.max { $0.record.startedAt < $1.record.startedAt }!] : finished
            attempts += kept
            superseded += runs.filter { run in !kept.contains { $0.record.id == run.record.id } }
        }
        for run in attempts.sorted(by: { ($0.shard.index, $0.file) < ($1.shard.index, $1.file) }) {
            if let twice = byIndex[run.shard.index] {
                throw .shardMismatch(path: run.file, reason: "shard \(run.shard) of the \(describe(first)) is given twice: "
                                     + "run \(twice.record.id) in \(twice.file) and run \(run.record.id) here "
                                     + "(two runs of the same command; merge the shards of one of them)")
            }
            byIndex[run.shard.index] = run
        }
        let missing = (1...count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            var reason = "the \(describe(first)) has shards \(byIndex.keys.sorted().map { "\($0)/\(count)" }.joined(separator: ", ")) "
                + "but not \(missing.map { "\($0)/\(count)" }.joined(separator: ", "))"
            // Another group of the same kind and count may hold the "missing" shards with other parameters.
            if let other = others.first(where: { group in
                group.first?.record.kind == first.record.kind && group.first?.shard.count == count
                    && group.first?.record.id != first.record.id
                    && !group.contains { $0.record.id == first.record.id }
            })?.first {
                reason += "; shard \(other.shard) in \(other.file) is of the same kind but differs: "
                    + "\(differences(first, other, mapped: mapped))"
            }
            throw .shardMismatch(path: first.file, reason: reason)
        }
        let shards = (1...count).map { byIndex[$0]! }
        for run in shards where run.record.status != .finished {
            throw .shardMismatch(path: run.file, reason: "shard \(run.shard) of the \(describe(first)) (run \(run.record.id)) "
                                 + "is \(run.record.status.rawValue)\(run.record.error.map { ": \($0)" } ?? "") and no run of it finished; "
                                 + "run it again until it finishes, then merge")
        }

        let foldedID = RunID.folding(shards.map(\.record.id))
        let keys = Set(shards.flatMap(\.params.keys))
        var params: [String: String] = [:]
        for key in keys {
            let combination = ShardFoldRules.combination(of: key, kind: first.record.kind)
            if let value = ShardFoldRules.combine(shards.map { $0.params[key] }, as: combination) { params[key] = value }
        }
        params["shard"] = Shard.whole.description
        params[ShardFoldRules.foldedShardsKey] = "\(count)"
        params[ShardFoldRules.foldedRunsKey] = shards.map(\.record.id.rawValue).joined(separator: ",")

        let records = shards.map(\.record)
        let hosts = Set(records.map(\.host)).sorted()
        let folded = RunRecord(
            id: foldedID, kind: first.record.kind, name: shards[0].record.name,
            status: .finished, startedAt: records.map(\.startedAt).min()!, finishedAt: records.compactMap(\.finishedAt).max(),
            toolVersion: first.record.toolVersion, commandLine: unshardedCommandLine(shards[0].record.commandLine),
            workingDirectory: shards[0].record.workingDirectory, host: hosts.joined(separator: ","), pid: shards[0].record.pid,
            parentID: shards[0].record.parentID.map { mapped[$0] ?? $0 }, error: nil)
        return ShardFoldGroup(shards: shards, superseded: superseded, folded: folded, params: params,
                              alreadyFolded: existing.contains(foldedID))
    }

    /// "mix run 'corpus'" for messages.
    private static func describe(_ run: ShardRun) -> String {
        "\(run.record.kind.rawValue) run '\(run.record.name)' (\(run.shard.count) shards)"
    }

    /// The parameters (and parent or version) in which two shard runs differ, for messages.
    static func differences(_ a: ShardRun, _ b: ShardRun, mapped: [RunID: RunID]) -> String {
        var items: [String] = []
        if a.record.toolVersion != b.record.toolVersion { items.append("SEKit \(a.record.toolVersion) vs \(b.record.toolVersion)") }
        let parentA = a.record.parentID.map { mapped[$0] ?? $0 }, parentB = b.record.parentID.map { mapped[$0] ?? $0 }
        if parentA != parentB { items.append("parent run \(parentA?.rawValue ?? "none") vs \(parentB?.rawValue ?? "none")") }
        for key in Set(a.params.keys).union(b.params.keys).sorted()
        where ShardFoldRules.combination(of: key, kind: a.record.kind) == .equal && a.params[key] != b.params[key] {
            items.append("\(key) \(a.params[key] ?? "(none)") vs \(b.params[key] ?? "(none)")")
        }
        return items.isEmpty ? "nothing recorded" : items.joined(separator: ", ")
    }

    /// A shard's shell-quoted command line without its `--shard` and `--catalog` arguments: the
    /// command a single process runs for the same work.
    static func unshardedCommandLine(_ line: String) -> String {
        var kept: [String] = []
        var skipNext = false
        for word in Catalog.shellWords(line) {
            if skipNext { skipNext = false; continue }
            if word == "--shard" || word == "--catalog" { skipNext = true; continue }
            if word.hasPrefix("--shard=") || word.hasPrefix("--catalog=") { continue }
            kept.append(word)
        }
        return Catalog.shellQuoted(kept)
    }
}
