import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// The run a user means by `reference`: its id, a run name (a checkpoint's name), or a unique
    /// prefix of its id. The one home of run resolution: every `sekit runs` command and
    /// `score --from-run` resolve through it.
    ///
    /// An exact id wins. Otherwise the runs named `reference` and the runs whose id starts with it
    /// (restricted to `kind` when given) are the candidates: one is the answer, none is
    /// ``CatalogError/noSuchRun(path:reference:candidates:)`` listing runs with a name alike (else
    /// the latest). Among several, one is still the answer when the others are out of the way:
    /// - `preferring: .finished` (reading a result): the latest `finished` run named `reference` (older
    ///   runs of the name stay reachable by id); without one, exactly one `finished` (by id prefix),
    ///   every other one failed or abandoned (killed attempts of the same command: `failed`, or
    ///   `running` under a process gone from this host);
    /// - `preferring: .running` (logging into a run made elsewhere): exactly one `running` that is not
    ///   abandoned (runs that ended cannot be logged into).
    ///
    /// Otherwise several is ``CatalogError/ambiguousRun(path:reference:candidates:)`` listing them
    /// (newest first).
    public func resolveRun(_ reference: String, kind: RunKind? = nil, preferring: RunStatus = .finished) throws(CatalogError) -> RunRecord {
        let path = url.path
        return try read { db in
            if let run = try RunRecord.fetchOne(db, key: reference), kind == nil || run.kind == kind { return run }
            guard !reference.isEmpty else { throw CatalogError.unknownRun(path: path, id: reference, reason: "empty run reference") }
            var request = RunRecord.filter(RunRecord.Columns.name == reference
                || RunRecord.Columns.id.like(Self.likePrefix(reference), escape: "\\"))
            if let kind { request = request.filter(RunRecord.Columns.kind == kind.rawValue) }
            let matches = try request.order(RunRecord.Columns.startedAt.desc, RunRecord.Columns.id).limit(51).fetchAll(db)
            guard !matches.isEmpty else {
                throw CatalogError.noSuchRun(path: path, reference: reference,
                                             candidates: try Self.runsAlike(reference, kind: kind, db).map(Self.candidateLine))
            }
            guard matches.count == 1 else {
                // Reading a result by name: the latest finished run of that name (older attempts stay
                // reachable by id). Several runs sharing an id prefix stay ambiguous.
                if preferring == .finished, let latest = matches.first(where: { $0.name == reference && $0.status == .finished }) {
                    return latest
                }
                let live = try Self.liveRuns(matches, db)
                let preferred = matches.filter { $0.status == preferring && (preferring != .running || live.contains($0.id)) }
                let others = matches.filter { $0.status != preferring }
                if preferred.count == 1, preferring == .running || others.allSatisfy({ !live.contains($0.id) && $0.status != .finished }) {
                    return preferred[0]
                }
                throw CatalogError.ambiguousRun(path: path, reference: reference, candidates: matches.map(Self.candidateLine))
            }
            return matches[0]
        }
    }

    /// The runs of `runs` that are not defunct: finished, or `running` under a process (for a fold,
    /// its merging process) that is alive on this host or on another host (which cannot be checked).
    private static func liveRuns(_ runs: [RunRecord], _ db: Database) throws -> Set<RunID> {
        let host = ProcessInfo.processInfo.hostName
        let folding = try foldingProcesses(db)
        return Set(runs.filter { run in
            guard run.status == .running else { return run.status == .finished }
            let owner = folding[run.id] ?? (run.host, run.pid)
            return owner.host != host || ProcessProbe.isAlive(pid: owner.pid)
        }.map(\.id))
    }

    /// Runs a reference that matched nothing may have meant: names containing it or contained in it
    /// (case-insensitively), else the latest runs; at most ten, newest first.
    private static func runsAlike(_ reference: String, kind: RunKind?, _ db: Database) throws -> [RunRecord] {
        var request = RunRecord.order(RunRecord.Columns.startedAt.desc, RunRecord.Columns.id)
        if let kind { request = request.filter(RunRecord.Columns.kind == kind.rawValue) }
        let alike = try request.filter(sql: "name <> '' AND (instr(lower(name), lower(?)) > 0 OR instr(lower(?), lower(name)) > 0)",
                                       arguments: [reference, reference]).limit(10).fetchAll(db)
        return alike.isEmpty ? try request.limit(10).fetchAll(db) : alike
    }

    /// One line describing a run among several candidates.
    package static func candidateLine(_ run: RunRecord) -> String {
        let started = ISO8601DateFormatter().string(from: run.startedAt)
        return "\(run.id)  \(run.kind.rawValue)  \(run.name.isEmpty ? "(no name)" : run.name)  \(run.status.rawValue)  started \(started)"
    }
}
