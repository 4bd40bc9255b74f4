import Foundation
import GRDB

extension Catalog {
    /// The run a user means by `reference`: its id, a run name (a checkpoint's name), or a unique
    /// prefix of its id.
    ///
    /// An exact id wins. Otherwise the runs named `reference` and the runs whose id starts with it
    /// (restricted to `kind` when given) are the candidates: one is the answer, none is
    /// ``CatalogError/unknownRun(path:id:reason:)``, several is
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
                throw CatalogError.ambiguousRun(path: path, reference: reference, candidates: matches.map(Self.candidateLine))
            }
            return matches[0]
        }
    }

    /// One line describing a run among several candidates.
    static func candidateLine(_ run: RunRecord) -> String {
        let started = ISO8601DateFormatter().string(from: run.startedAt)
        return "\(run.id)  \(run.kind.rawValue)  \(run.name.isEmpty ? "(no name)" : run.name)  \(run.status.rawValue)  started \(started)"
    }
}
