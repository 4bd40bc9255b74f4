import Foundation
import GRDB

extension Catalog {
    /// The run a user means by `reference`: its id, a run name (a checkpoint's name), or a unique
    /// prefix of its id.
    ///
    /// An exact id wins. Otherwise the runs named `reference` and the runs whose id starts with it
    /// (restricted to `kind` when given) are the candidates: one is the answer, none is
    /// ``CatalogError/unknownRun(path:id:reason:)``. Among several, exactly one `finished` next to
    /// runs that failed or were abandoned (killed attempts of the same command: `failed`, or
    /// `running` under a process gone from this host) is the answer; otherwise several is
    /// ``CatalogError/ambiguousRun(path:reference:candidates:)`` listing them (newest first).
    public func resolveRun(_ reference: String, kind: RunKind? = nil) throws(CatalogError) -> RunRecord {
        let path = url.path
        return try read { db in
            if let run = try RunRecord.fetchOne(db, key: reference), kind == nil || run.kind == kind { return run }
            guard !reference.isEmpty else { throw CatalogError.unknownRun(path: path, id: reference, reason: "empty run reference") }
            var request = RunRecord.filter(RunRecord.Columns.name == reference
                || RunRecord.Columns.id.like(Self.likePrefix(reference), escape: "\\"))
            if let kind { request = request.filter(RunRecord.Columns.kind == kind.rawValue) }
            let matches = try request.order(RunRecord.Columns.startedAt.desc, RunRecord.Columns.id).limit(51).fetchAll(db)
            guard !matches.isEmpty else {
                let what = kind.map { "no \($0.rawValue) run" } ?? "no run"
                throw CatalogError.unknownRun(path: path, id: reference, reason: "\(what) has this id, id prefix or name")
            }
            guard matches.count == 1 else {
                let finished = matches.filter { $0.status == .finished }
                if finished.count == 1, try Self.areDefunct(matches.filter { $0.status != .finished }, db) { return finished[0] }
                throw CatalogError.ambiguousRun(path: path, reference: reference, candidates: matches.map(Self.candidateLine))
            }
            return matches[0]
        }
    }

    /// Whether every run of `runs` failed or was abandoned: `running` under a process (for a fold,
    /// its merging process) that is gone from this host.
    private static func areDefunct(_ runs: [RunRecord], _ db: Database) throws -> Bool {
        let host = ProcessInfo.processInfo.hostName
        let folding = try foldingProcesses(db)
        return runs.allSatisfy { run in
            guard run.status == .running else { return run.status == .failed }
            let owner = folding[run.id] ?? (run.host, run.pid)
            return owner.host == host && !ProcessProbe.isAlive(pid: owner.pid)
        }
    }

    /// One line describing a run among several candidates.
    static func candidateLine(_ run: RunRecord) -> String {
        let started = ISO8601DateFormatter().string(from: run.startedAt)
        return "\(run.id)  \(run.kind.rawValue)  \(run.name.isEmpty ? "(no name)" : run.name)  \(run.status.rawValue)  started \(started)"
    }
}
