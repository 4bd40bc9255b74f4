import Foundation
import GRDB

/// What a `score` run scored, so that two runs can be told to be on the same test set.
///
/// In order of preference: the mix run(s) of its corpus, found through its parent chain (a score
/// run's enhance or features run, their mix run), its `mix_runs` parameter (a sharded corpus), or
/// its `corpus_mix_runs` parameter (a corpus mixed into another catalogue: the mix runs the corpus
/// folder records, whichever catalogue holds them); else the corpus folder it paired through
/// (`params.corpus`); else its reference folder (`params.reference`). The split scored is not part
/// of it: two runs of one corpus pair on the clips both scored.
public struct ScoredCorpus: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `mix:RUN[,RUN...]`, `corpus:PATH` or `reference:PATH`.
    public var key: String

    public var description: String {
        if key.hasPrefix("mix:") { return "corpus of mix run " + key.dropFirst(4) }
        if key.hasPrefix("corpus:") { return "corpus folder " + key.dropFirst(7) }
        return "reference folder " + key.dropFirst(10)
    }

    /// The parameter of a score run naming the mix runs of a corpus mixed into another catalogue.
    public static let corpusMixRunsKey = "corpus_mix_runs"

    /// The mix runs, when the corpus was catalogued.
    public var mixRuns: [RunID] {
        key.hasPrefix("mix:") ? key.dropFirst(4).split(separator: ",").map { RunID(String($0)) } : []
    }
}

extension Catalog {
    /// The runs from `run` up its parent chain (itself first), at most 16 deep.
    public func lineage(of run: RunRecord) throws(CatalogError) -> [RunRecord] {
        try read { db in
            var chain = [run]
            while chain.count < 16, let parent = chain.last?.parentID, !chain.contains(where: { $0.id == parent }),
                  let record = try RunRecord.fetchOne(db, key: parent.rawValue) {
                chain.append(record)
            }
            return chain
        }
    }

    /// A run's parameters, key → text.
    public func paramValues(of run: RunID) throws(CatalogError) -> [String: String] {
        try reading { session in try session.paramValues(of: run) }
    }

    /// What `run` scored (see ``ScoredCorpus``).
    public func scoredCorpus(of run: RunRecord) throws(CatalogError) -> ScoredCorpus {
        if let mix = try lineage(of: run).first(where: { $0.kind == .mix }) { return ScoredCorpus(key: "mix:" + mix.id.rawValue) }
        let params = try paramValues(of: run.id)
        for key in ["mix_runs", ScoredCorpus.corpusMixRunsKey] {
            if let runs = params[key], !runs.isEmpty {
                return ScoredCorpus(key: "mix:" + runs.split(separator: ",").map(String.init).sorted().joined(separator: ","))
            }
        }
        if let corpus = params["corpus"] { return ScoredCorpus(key: "corpus:" + corpus) }
        return ScoredCorpus(key: "reference:" + (params["reference"] ?? "?"))
    }
}
