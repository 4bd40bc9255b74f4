import Foundation
import GRDB

/// What a `score` run scored, so that two runs can be told to be on the same test set: read from
/// its `score_targets` row (schema `v7-corpora`).
///
/// A mixed corpus is one test set wherever its folder lies (its ``CorpusIdentity``); a folder of
/// references (or a corpus folder without `mix.json`) is one by its path; outputs scored without a
/// reference by theirs. The split scored is not part of it: two runs of one corpus pair on the
/// clips both scored. Two values are equal when their ``key``s are.
public struct ScoredCorpus: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `corpus:IDENTITY`, `mix:RUN` (a mix run whose corpus is not recorded yet: it has not finished),
    /// `folder:PATH` or `outputs:PATH`.
    public let key: String
    /// The mix runs that made the corpus (one per shard), wherever they were recorded.
    public let mixRuns: [RunID]
    /// How messages name it.
    public let label: String

    /// A recorded corpus.
    public init(corpus: CorpusRecord, mixRuns: [RunID]) {
        key = "corpus:" + corpus.identity
        self.mixRuns = mixRuns
        label = "corpus '\(corpus.name)' (\(corpus.path), identity \(corpus.identity.prefix(12)))"
    }

    /// The corpus of a mix run that recorded none yet.
    public init(mixRun: RunID) {
        key = "mix:" + mixRun.rawValue; mixRuns = [mixRun]; label = "corpus of mix run \(mixRun)"
    }

    /// A folder of references (or a corpus folder without `mix.json`).
    public init(folder: String) { key = "folder:" + folder; mixRuns = []; label = "reference folder \(folder)" }

    /// Outputs scored without a reference.
    public init(outputs: String) { key = "outputs:" + outputs; mixRuns = []; label = "outputs in \(outputs) (no reference)" }

    /// The parameter of a score (features, enhance) run naming the mix runs of a corpus mixed into
    /// another catalogue: `catalog merge` makes the mix run its parent.
    public static let corpusMixRunsKey = "corpus_mix_runs"

    public var description: String { label }

    /// JSON reports (`runs diff`, `runs leaderboard --format json`) write `{"key": KEY}`.
    enum CodingKeys: String, CodingKey { case key }
    public init(from decoder: any Decoder) throws {
        key = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .key)
        mixRuns = key.hasPrefix("mix:") ? [RunID(String(key.dropFirst(4)))] : []
        label = key
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
    }
    public static func == (a: ScoredCorpus, b: ScoredCorpus) -> Bool { a.key == b.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
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

    /// What `run` scored (see ``ScoredCorpus``): a score run's recorded target; for another run
    /// (an enhance or features run), the corpus of the mix run up its parent chain.
    /// - Throws: ``CatalogError/unknownRun(path:id:reason:)`` for a run that names no test set (a score
    ///   run recorded without its target, which SEKit's own score runs always record).
    public func scoredCorpus(of run: RunRecord) throws(CatalogError) -> ScoredCorpus {
        if run.kind == .score {
            guard let target = try scoreTarget(of: run.id) else {
                throw .unknownRun(path: url.path, id: run.id.rawValue, reason: "a score run without a recorded target (score_targets)")
            }
            if let identity = target.corpus, let corpus = try corpus(identity: identity) {
                return ScoredCorpus(corpus: corpus, mixRuns: try mixRuns(ofCorpus: identity))
            }
            if let folder = target.folder { return ScoredCorpus(folder: folder) }
            return ScoredCorpus(outputs: target.enhancedFolder ?? "?")
        }
        if let mix = try lineage(of: run).first(where: { $0.kind == .mix }) { return try corpus(ofMix: mix.id) }
        throw .unknownRun(path: url.path, id: run.id.rawValue, reason: "it records no corpus or folder it was made from")
    }

    /// The corpus a mix run made: the latest recorded, else (a mix that has not finished) the run's own.
    func corpus(ofMix run: RunID) throws(CatalogError) -> ScoredCorpus {
        guard let corpus = try corpora(ofMixRun: run).first else { return ScoredCorpus(mixRun: run) }
        return ScoredCorpus(corpus: corpus, mixRuns: try mixRuns(ofCorpus: corpus.identity))
    }
}
