import Foundation
import GRDB

/// One row of `listening_tests`: a listening test imported by `sekit listen import`.
public struct ListeningTestRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "listening_tests"
    public var name: String
    /// `mushra`, `acr`, `dcr`, `ccr` or `p835`.
    public var kind: String
    /// The test folder `sekit listen make` wrote.
    public var folder: String
    /// The stimuli hash of its `test.json`.
    public var stimuliHash: String
    /// The seed (a UInt64's bits).
    public var seed: Int64
    public var importedAt: String

    public enum Columns {
        public static let name = Column(CodingKeys.name)
        public static let kind = Column(CodingKeys.kind)
        public static let folder = Column(CodingKeys.folder)
        public static let stimuliHash = Column(CodingKeys.stimuliHash)
        public static let seed = Column(CodingKeys.seed)
        public static let importedAt = Column(CodingKeys.importedAt)
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, folder, stimuliHash = "stimuli_hash", seed, importedAt = "imported_at"
    }

    /// Every stored property, in declaration order (the memberwise initialiser, visible to the package).
    package init(name: String, kind: String, folder: String, stimuliHash: String, seed: Int64, importedAt: String) {
        self.name = name
        self.kind = kind
        self.folder = folder
        self.stimuliHash = stimuliHash
        self.seed = seed
        self.importedAt = importedAt
    }
}

/// One row of `listening_stimuli`: what a rater heard, with its clip, condition and file.
public struct ListeningStimulusRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "listening_stimuli"
    public var test: String
    /// `TRIAL/CONDITION`.
    public var id: String
    public var trial: String
    /// The catalogue clip id (as the score runs recorded it).
    public var clipID: String
    /// A run's name, `anchor35`, `anchor70` or `reference`.
    public var condition: String
    /// `test`, `gold` or `trap`.
    public var role: String
    /// The condition's score run; nil for anchors and references.
    public var scoreRunID: String?
    public var snrDB: Double?
    public var file: String
    public var sha256: String

    public enum Columns {
        public static let test = Column(CodingKeys.test)
        public static let id = Column(CodingKeys.id)
        public static let trial = Column(CodingKeys.trial)
        public static let clipID = Column(CodingKeys.clipID)
        public static let condition = Column(CodingKeys.condition)
        public static let role = Column(CodingKeys.role)
        public static let scoreRunID = Column(CodingKeys.scoreRunID)
        public static let snrDB = Column(CodingKeys.snrDB)
        public static let file = Column(CodingKeys.file)
        public static let sha256 = Column(CodingKeys.sha256)
    }

    enum CodingKeys: String, CodingKey {
        case test, id, trial, clipID = "clip_id", condition, role, scoreRunID = "score_run_id", snrDB = "snr_db", file, sha256
    }

    /// Every stored property, in declaration order (the memberwise initialiser, visible to the package).
    package init(test: String, id: String, trial: String, clipID: String, condition: String, role: String, scoreRunID: String? = nil,
                 snrDB: Double? = nil, file: String, sha256: String) {
        self.test = test
        self.id = id
        self.trial = trial
        self.clipID = clipID
        self.condition = condition
        self.role = role
        self.scoreRunID = scoreRunID
        self.snrDB = snrDB
        self.file = file
        self.sha256 = sha256
    }
}

/// One row of `listening_raters`: a rater of a test, kept or excluded by screening.
public struct ListeningRaterRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "listening_raters"
    public var test: String
    public var rater: String
    /// The results file the rater's ratings came from.
    public var source: String
    public var excluded: Bool
    /// The screening rule that excluded the rater, with its evidence; nil when kept.
    public var rule: String?

    public enum Columns {
        public static let test = Column(CodingKeys.test)
        public static let rater = Column(CodingKeys.rater)
        public static let source = Column(CodingKeys.source)
        public static let excluded = Column(CodingKeys.excluded)
        public static let rule = Column(CodingKeys.rule)
    }

    /// Every stored property, in declaration order (the memberwise initialiser, visible to the package).
    package init(test: String, rater: String, source: String, excluded: Bool, rule: String? = nil) {
        self.test = test
        self.rater = rater
        self.source = source
        self.excluded = excluded
        self.rule = rule
    }
}

/// One row of `listening_ratings`: a rater's score of a stimulus on a scale.
public struct ListeningRatingRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "listening_ratings"
    public var test: String
    public var rater: String
    public var stimulus: String
    /// `mushra`, `acr`, `dcr`, `ccr`, or P.835's `sig`, `bak`, `ovrl`.
    public var scale: String
    public var score: Double
    public var timeSeconds: Double?

    public enum Columns {
        public static let test = Column(CodingKeys.test)
        public static let rater = Column(CodingKeys.rater)
        public static let stimulus = Column(CodingKeys.stimulus)
        public static let scale = Column(CodingKeys.scale)
        public static let score = Column(CodingKeys.score)
        public static let timeSeconds = Column(CodingKeys.timeSeconds)
    }

    enum CodingKeys: String, CodingKey {
        case test, rater, stimulus, scale, score, timeSeconds = "time_seconds"
    }

    /// Every stored property, in declaration order (the memberwise initialiser, visible to the package).
    package init(test: String, rater: String, stimulus: String, scale: String, score: Double, timeSeconds: Double? = nil) {
        self.test = test
        self.rater = rater
        self.stimulus = stimulus
        self.scale = scale
        self.score = score
        self.timeSeconds = timeSeconds
    }
}
