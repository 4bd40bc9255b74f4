import Foundation
import GRDB

/// One row of `artifacts`: a file a run produced (HDF5 features, a report, a model output folder...).
public struct ArtifactRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "artifacts"
    public var runID: RunID
    public var path: String
    /// What it is, e.g. `features-hdf5`, `report-html`, `wav-folder`.
    public var kind: String
    /// SHA-256 of the bytes, lower-case hex, when hashed.
    public var sha256: String?
    public var bytes: Int?
    public var createdAt: Date

    public init(runID: RunID, path: String, kind: String, sha256: String? = nil, bytes: Int? = nil, createdAt: Date = Date()) {
        self.runID = runID; self.path = path; self.kind = kind; self.sha256 = sha256; self.bytes = bytes
        self.createdAt = createdAt
    }

    public enum Columns {
        public static let runID = Column(CodingKeys.runID)
        public static let path = Column(CodingKeys.path)
        public static let kind = Column(CodingKeys.kind)
        public static let sha256 = Column(CodingKeys.sha256)
        public static let bytes = Column(CodingKeys.bytes)
        public static let createdAt = Column(CodingKeys.createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", path, kind, sha256, bytes, createdAt = "created_at"
    }
}

/// One row of `clip_scores`: a metric for one clip in a score run, for the processed signal and
/// for the noisy input; `error` says why a clip could not be scored (then `value` may be nil).
///
/// `clipID` is text without a foreign key: a score run may score files that no mix run produced.
public struct ClipScoreRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "clip_scores"
    public var runID: RunID
    public var clipID: String
    public var metric: String
    public var value: Double?
    public var noisyValue: Double?
    public var error: String?

    public init(runID: RunID, clipID: String, metric: String, value: Double?, noisyValue: Double? = nil, error: String? = nil) {
        self.runID = runID; self.clipID = clipID; self.metric = metric; self.value = value
        self.noisyValue = noisyValue; self.error = error
    }

    public enum Columns {
        public static let runID = Column(CodingKeys.runID)
        public static let clipID = Column(CodingKeys.clipID)
        public static let metric = Column(CodingKeys.metric)
        public static let value = Column(CodingKeys.value)
        public static let noisyValue = Column(CodingKeys.noisyValue)
        public static let error = Column(CodingKeys.error)
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", clipID = "clip_id", metric, value, noisyValue = "noisy_value", error
    }
}

/// One row of `run_metrics`: an aggregate of a metric over a run's clips, overall (`subset` = "")
/// or over a subset such as `snr=5` or `split=test`.
public struct RunMetricRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "run_metrics"
    public var runID: RunID
    public var metric: String
    public var subset: String
    public var mean: Double
    public var std: Double?
    public var ci95Low: Double?
    public var ci95High: Double?
    /// Number of clips aggregated (≥ 1).
    public var n: Int

    public init(runID: RunID, metric: String, subset: String = "", mean: Double, std: Double? = nil,
                ci95Low: Double? = nil, ci95High: Double? = nil, n: Int) {
        self.runID = runID; self.metric = metric; self.subset = subset; self.mean = mean; self.std = std
        self.ci95Low = ci95Low; self.ci95High = ci95High; self.n = n
    }

    /// The 95% interval as reports show it: nil when not stored or for one clip, where it is
    /// undefined (catalogues written before SEKit said so stored one of zero width).
    public var ci95: (low: Double, high: Double)? {
        guard n >= 2, let ci95Low, let ci95High else { return nil }
        return (ci95Low, ci95High)
    }

    public enum Columns {
        public static let runID = Column(CodingKeys.runID)
        public static let metric = Column(CodingKeys.metric)
        public static let subset = Column(CodingKeys.subset)
        public static let mean = Column(CodingKeys.mean)
        public static let std = Column(CodingKeys.std)
        public static let ci95Low = Column(CodingKeys.ci95Low)
        public static let ci95High = Column(CodingKeys.ci95High)
        public static let n = Column(CodingKeys.n)
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", metric, subset, mean, std, ci95Low = "ci95_low", ci95High = "ci95_high", n
    }
}
