import Foundation
import GRDB

/// A run's identifier: a lower-case UUID, unique across machines, so shard catalogues merge
/// without renumbering.
public struct RunID: Hashable, Sendable, Codable, CustomStringConvertible, DatabaseValueConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A fresh random (version 4) UUID.
    public static func make() -> RunID { RunID(UUID().uuidString.lowercased()) }
    public var description: String { rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(rawValue) }
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> RunID? { String.fromDatabaseValue(dbValue).map(RunID.init) }
}

/// What a run did. `train`: a model trained elsewhere (a Python script through `sekit runs start` or
/// `sekit.tracking`), since schema migration `v3-tracking`.
public enum RunKind: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
    case `import`, mix, features, synthesize, enhance, score, report, other, train
}

/// Where a run stands. A run killed mid-way stays `running` until `catalog check` (or the
/// next run of the same command on the same host) finds its process gone and marks it `failed`.
public enum RunStatus: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
    case running, finished, failed
}

/// One row of `runs`: a command that produced something, with its provenance.
public struct RunRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "runs"
    public var id: RunID
    public var kind: RunKind
    /// Free-form name, e.g. a model or corpus name; empty when not given.
    public var name: String
    public var status: RunStatus
    public var startedAt: Date
    public var finishedAt: Date?
    /// SEKit version that ran it.
    public var toolVersion: String
    /// The full command line, arguments joined with shell quoting.
    public var commandLine: String
    public var workingDirectory: String
    /// Host name and process id, used to tell a killed run from one still going.
    public var host: String
    public var pid: Int
    public var parentID: RunID?
    /// Why the run failed, when it did.
    public var error: String?

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let kind = Column(CodingKeys.kind)
        public static let name = Column(CodingKeys.name)
        public static let status = Column(CodingKeys.status)
        public static let startedAt = Column(CodingKeys.startedAt)
        public static let finishedAt = Column(CodingKeys.finishedAt)
        public static let toolVersion = Column(CodingKeys.toolVersion)
        public static let commandLine = Column(CodingKeys.commandLine)
        public static let workingDirectory = Column(CodingKeys.workingDirectory)
        public static let host = Column(CodingKeys.host)
        public static let pid = Column(CodingKeys.pid)
        public static let parentID = Column(CodingKeys.parentID)
        public static let error = Column(CodingKeys.error)
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, name, status
        case startedAt = "started_at", finishedAt = "finished_at", toolVersion = "tool_version"
        case commandLine = "command_line", workingDirectory = "working_directory", host, pid
        case parentID = "parent_id", error
    }
}

/// One row of `params`: a run parameter, as text and, when the text is a finite number, as a number
/// (so `params.snr_db > 5` compares numbers, not strings).
public struct ParamRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "params"
    public var runID: RunID
    public var key: String
    public var valueText: String
    public var valueNumber: Double?

    /// A parameter; `valueNumber` is derived from the text.
    public init(runID: RunID, key: String, value: String) {
        self.runID = runID
        self.key = key
        self.valueText = value
        self.valueNumber = Self.number(from: value)
    }

    /// The finite number a parameter's text spells, or nil (`"5"`, `"-2.5e-3"` are numbers; `"5 dB"`, `"nan"` are not).
    package static func number(from text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    public enum Columns {
        public static let runID = Column(CodingKeys.runID)
        public static let key = Column(CodingKeys.key)
        public static let valueText = Column(CodingKeys.valueText)
        public static let valueNumber = Column(CodingKeys.valueNumber)
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", key, valueText = "value_text", valueNumber = "value_number"
    }
}
