import Foundation
import GRDB

/// One row of `analysed_corpora`: a corpus folder `sekit catalog analyze` measured.
public struct AnalysedCorpusRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "analysed_corpora"
    /// The corpus name (`--name`, else the folder's name): `corpus:NAME` in mix inputs.
    public var name: String
    /// The folder analysed, absolute.
    public var folder: String
    /// When it was last analysed.
    public var analysedAt: Date
    /// The SEKit version that analysed it.
    public var toolVersion: String
    /// The DNSMOS backend of the last analysis that ran DNSMOS (`backend_*` parameters as JSON:
    /// package versions and model SHA-256s); nil when DNSMOS never ran.
    public var dnsmosBackend: String?

    public enum Columns {
        public static let name = Column(CodingKeys.name)
        public static let folder = Column(CodingKeys.folder)
        public static let analysedAt = Column(CodingKeys.analysedAt)
        public static let toolVersion = Column(CodingKeys.toolVersion)
        public static let dnsmosBackend = Column(CodingKeys.dnsmosBackend)
    }

    enum CodingKeys: String, CodingKey {
        case name, folder, analysedAt = "analysed_at", toolVersion = "tool_version", dnsmosBackend = "dnsmos_backend"
    }

    /// Every stored property, in declaration order (the memberwise initialiser, visible to the package).
    package init(name: String, folder: String, analysedAt: Date, toolVersion: String, dnsmosBackend: String? = nil) {
        self.name = name
        self.folder = folder
        self.analysedAt = analysedAt
        self.toolVersion = toolVersion
        self.dnsmosBackend = dnsmosBackend
    }
}

/// One row of `source_analysis`: the measures of one file of an analysed corpus. Column names are
/// the names of the mix's `corpus:NAME where ...` filter (``CatalogFilter/Context/sourceAnalysis``).
public struct SourceAnalysisRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "source_analysis"
    public var corpus: String
    /// Path inside the corpus folder (the key of the row).
    public var relativePath: String
    /// Absolute path when analysed.
    public var path: String
    /// SHA-256 of the file's bytes when analysed, lower-case hex.
    public var sha256: String
    /// Sample rate, Hz.
    public var sampleRate: Int?
    public var durationSeconds: Double?
    /// Effective bandwidth, Hz: the highest frequency within 50 dB of the long-term spectrum's peak.
    public var bandwidthHz: Double?
    /// Fraction of the file ITU-T P.56 counts as active speech (0 when it finds none).
    public var activeSpeechRatio: Double?
    /// Fraction of samples with |x| ≥ 0.999.
    public var clippingRatio: Double?
    /// Mean sample value (full scale 1).
    public var dcOffset: Double?
    /// ITU-T P.56 active speech level, dBFS; nil when P.56 finds no active speech.
    public var levelDBFS: Double?
    /// RMS level of the whole file, dBFS; nil for a silent file.
    public var rmsDBFS: Double?
    /// DNSMOS P.835 SIG, BAK, OVRL; nil when DNSMOS was not run (or could not score the file).
    public var dnsmosSIG: Double?
    public var dnsmosBAK: Double?
    public var dnsmosOVRL: Double?
    /// Why the file could not be analysed (its measures are then nil).
    public var error: String?
    public var analysedAt: Date

    public enum Columns {
        public static let corpus = Column(CodingKeys.corpus)
        public static let relativePath = Column(CodingKeys.relativePath)
        public static let path = Column(CodingKeys.path)
        public static let sha256 = Column(CodingKeys.sha256)
        public static let sampleRate = Column(CodingKeys.sampleRate)
        public static let durationSeconds = Column(CodingKeys.durationSeconds)
        public static let bandwidthHz = Column(CodingKeys.bandwidthHz)
        public static let activeSpeechRatio = Column(CodingKeys.activeSpeechRatio)
        public static let clippingRatio = Column(CodingKeys.clippingRatio)
        public static let dcOffset = Column(CodingKeys.dcOffset)
        public static let levelDBFS = Column(CodingKeys.levelDBFS)
        public static let rmsDBFS = Column(CodingKeys.rmsDBFS)
        public static let dnsmosSIG = Column(CodingKeys.dnsmosSIG)
        public static let dnsmosBAK = Column(CodingKeys.dnsmosBAK)
        public static let dnsmosOVRL = Column(CodingKeys.dnsmosOVRL)
        public static let error = Column(CodingKeys.error)
        public static let analysedAt = Column(CodingKeys.analysedAt)
    }

    enum CodingKeys: String, CodingKey {
        case corpus, relativePath = "relative_path", path, sha256, sampleRate = "sample_rate", durationSeconds = "duration_seconds"
        case bandwidthHz = "bandwidth_hz", activeSpeechRatio = "active_speech_ratio", clippingRatio = "clipping_ratio"
        case dcOffset = "dc_offset", levelDBFS = "level_dbfs", rmsDBFS = "rms_dbfs"
        case dnsmosSIG = "dnsmos_sig", dnsmosBAK = "dnsmos_bak", dnsmosOVRL = "dnsmos_ovrl", error, analysedAt = "analysed_at"
    }

    /// Every stored property, in declaration order (the memberwise initialiser, visible to the package).
    package init(corpus: String, relativePath: String, path: String, sha256: String, sampleRate: Int? = nil,
                 durationSeconds: Double? = nil, bandwidthHz: Double? = nil, activeSpeechRatio: Double? = nil,
                 clippingRatio: Double? = nil, dcOffset: Double? = nil, levelDBFS: Double? = nil, rmsDBFS: Double? = nil,
                 dnsmosSIG: Double? = nil, dnsmosBAK: Double? = nil, dnsmosOVRL: Double? = nil, error: String? = nil,
                 analysedAt: Date) {
        self.corpus = corpus
        self.relativePath = relativePath
        self.path = path
        self.sha256 = sha256
        self.sampleRate = sampleRate
        self.durationSeconds = durationSeconds
        self.bandwidthHz = bandwidthHz
        self.activeSpeechRatio = activeSpeechRatio
        self.clippingRatio = clippingRatio
        self.dcOffset = dcOffset
        self.levelDBFS = levelDBFS
        self.rmsDBFS = rmsDBFS
        self.dnsmosSIG = dnsmosSIG
        self.dnsmosBAK = dnsmosBAK
        self.dnsmosOVRL = dnsmosOVRL
        self.error = error
        self.analysedAt = analysedAt
    }
}
