import Foundation
import GRDB

/// One row of `corpora` (schema `v7-corpora`): a mixed corpus, keyed by its ``CorpusIdentity``.
public struct CorpusRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "corpora"
    /// ``CorpusIdentity/identity``: the hash of `mix.json` and the manifests (or, for a corpus recorded
    /// by the migration whose files had gone, ``CorpusIdentity/legacy(mixRuns:)``).
    public var identity: String
    /// The folder's name when first recorded.
    public var name: String
    /// The folder the corpus was last seen in (a moved or copied corpus keeps its identity).
    public var path: String
    /// SHA-256 of `mix.json`; nil when the identity is a legacy stand-in.
    public var specSHA256: String?
    public var recordedAt: Date

    public enum Columns {
        public static let identity = Column(CodingKeys.identity), name = Column(CodingKeys.name), path = Column(CodingKeys.path)
        public static let specSHA256 = Column(CodingKeys.specSHA256), recordedAt = Column(CodingKeys.recordedAt)
    }

    enum CodingKeys: String, CodingKey { case identity, name, path, specSHA256 = "spec_sha256", recordedAt = "recorded_at" }
}

/// One row of `corpus_mix_runs`: a mix run (one per shard) that made a corpus.
public struct CorpusMixRunRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "corpus_mix_runs"
    public var corpus: String
    public var mixRunID: RunID

    public enum Columns {
        public static let corpus = Column(CodingKeys.corpus), mixRunID = Column(CodingKeys.mixRunID)
    }

    enum CodingKeys: String, CodingKey { case corpus, mixRunID = "mix_run_id" }
}

/// What a score run scored of its test set.
public enum ScoredInput: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
    /// The corpus's noisy input against its clean reference (`score --corpus` without `--enhanced`).
    case noisy
    /// A folder of processed outputs (`--enhanced`).
    case enhanced
}

/// One row of `score_targets`: what a score run scored, as typed columns.
public struct ScoreTargetRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "score_targets"
    public var runID: RunID
    /// The corpus scored (its identity), when the test set is a mixed corpus.
    public var corpus: String?
    /// The test set's folder when it is no identified corpus: references (`score --reference`) or a
    /// corpus folder without `mix.json`. Nil with `corpus` nil: outputs scored without a reference.
    public var folder: String?
    public var scored: ScoredInput
    /// The outputs scored (``ScoredInput/enhanced``).
    public var enhancedFolder: String?
    /// The enhance run that wrote ``enhancedFolder``, when this catalogue holds it.
    public var enhanceRunID: RunID?

    public init(runID: RunID, corpus: String?, folder: String?, scored: ScoredInput, enhancedFolder: String?,
                enhanceRunID: RunID?) {
        self.runID = runID; self.corpus = corpus; self.folder = folder; self.scored = scored
        self.enhancedFolder = enhancedFolder; self.enhanceRunID = enhanceRunID
    }

    public enum Columns {
        public static let runID = Column(CodingKeys.runID), corpus = Column(CodingKeys.corpus), folder = Column(CodingKeys.folder)
        public static let scored = Column(CodingKeys.scored), enhancedFolder = Column(CodingKeys.enhancedFolder)
        public static let enhanceRunID = Column(CodingKeys.enhanceRunID)
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", corpus, folder, scored, enhancedFolder = "enhanced_folder", enhanceRunID = "enhance_run_id"
    }
}
