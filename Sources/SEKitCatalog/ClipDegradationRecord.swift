import GRDB

/// One row of `clip_degradations`: the `position`-th degradation applied to a clip's noisy input.
public struct ClipDegradationRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "clip_degradations"
    public var clipID: String
    /// Order of application, from 0.
    public var position: Int
    /// `bandwidth`, `codec`, `packet-loss` or `clip-distortion`.
    public var stage: String
    /// The codec for `codec` (`mp3`), else the stage.
    public var kind: String

    public init(clipID: String, position: Int, stage: String, kind: String) {
        self.clipID = clipID; self.position = position; self.stage = stage; self.kind = kind
    }

    public enum Columns {
        public static let clipID = Column(CodingKeys.clipID)
        public static let position = Column(CodingKeys.position)
        public static let stage = Column(CodingKeys.stage)
        public static let kind = Column(CodingKeys.kind)
    }

    enum CodingKeys: String, CodingKey { case clipID = "clip_id", position, stage, kind }
}

/// One row of `clip_degradation_params`: a parameter of a clip's degradation (`mp3_bitrate_kbps`),
/// as text and, when numeric, as a number (what `params.KEY` compares in a clip filter).
public struct ClipDegradationParamRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "clip_degradation_params"
    public var clipID: String
    /// The degradation's position (``ClipDegradationRecord/position``).
    public var position: Int
    public var key: String
    public var valueText: String
    public var valueNumber: Double?

    public init(clipID: String, position: Int, key: String, valueText: String, valueNumber: Double?) {
        self.clipID = clipID; self.position = position; self.key = key; self.valueText = valueText; self.valueNumber = valueNumber
    }

    public enum Columns {
        public static let clipID = Column(CodingKeys.clipID)
        public static let position = Column(CodingKeys.position)
        public static let key = Column(CodingKeys.key)
        public static let valueText = Column(CodingKeys.valueText)
        public static let valueNumber = Column(CodingKeys.valueNumber)
    }

    enum CodingKeys: String, CodingKey {
        case clipID = "clip_id", position, key, valueText = "value_text", valueNumber = "value_number"
    }
}
