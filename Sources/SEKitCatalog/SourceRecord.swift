import Foundation
import GRDB

/// What a source recording is used for.
public enum SourceKind: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
    case speech, noise, rir
}

/// One row of `sources`: an imported speech, noise or room-impulse-response file.
///
/// The id is `corpus:relative/path` (relative to the folder given to `catalog import`), the same
/// on every machine that imports the same corpus layout, so shard catalogues agree on it.
public struct SourceRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "sources"
    public var id: String
    public var kind: SourceKind
    public var corpus: String
    /// Absolute path when imported.
    public var path: String
    /// Path relative to the imported folder (the file name for a file given directly).
    public var relativePath: String
    /// SHA-256 of the file's bytes, lower-case hex.
    public var sha256: String
    /// File size in bytes.
    public var bytes: Int
    /// File modification time when imported (lets `catalog check` skip re-hashing unchanged files).
    public var modifiedAt: Date
    public var format: String
    public var encoding: String
    /// Sample rate in Hz.
    public var sampleRate: Int
    public var channels: Int
    /// Frames (samples per channel).
    public var frames: Int
    public var durationSeconds: Double
    /// Speaker taken from the path with `--speaker-pattern`, when given and matched.
    public var speaker: String?
    /// The import run that recorded (or last updated) it.
    public var importRunID: RunID

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let kind = Column(CodingKeys.kind)
        public static let corpus = Column(CodingKeys.corpus)
        public static let path = Column(CodingKeys.path)
        public static let relativePath = Column(CodingKeys.relativePath)
        public static let sha256 = Column(CodingKeys.sha256)
        public static let bytes = Column(CodingKeys.bytes)
        public static let modifiedAt = Column(CodingKeys.modifiedAt)
        public static let format = Column(CodingKeys.format)
        public static let encoding = Column(CodingKeys.encoding)
        public static let sampleRate = Column(CodingKeys.sampleRate)
        public static let channels = Column(CodingKeys.channels)
        public static let frames = Column(CodingKeys.frames)
        public static let durationSeconds = Column(CodingKeys.durationSeconds)
        public static let speaker = Column(CodingKeys.speaker)
        public static let importRunID = Column(CodingKeys.importRunID)
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, corpus, path, relativePath = "relative_path", sha256, bytes, modifiedAt = "modified_at"
        case format, encoding, sampleRate = "sample_rate", channels, frames, durationSeconds = "duration_seconds"
        case speaker, importRunID = "import_run_id"
    }
}
