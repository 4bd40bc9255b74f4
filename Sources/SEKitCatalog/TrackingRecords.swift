import Foundation
import GRDB

/// One row of `run_step_metrics`: the value of metric `key` at `step` of a run (a training run's
/// loss at epoch 3), logged by `sekit runs log` or `sekit.tracking`. One value per key and step;
/// always finite.
public struct StepMetricRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "run_step_metrics"
    public var runID: RunID
    public var key: String
    /// The step (an epoch, an iteration), from 0.
    public var step: Int
    public var value: Double
    /// When it was logged (the client's clock when it says, else the catalogue's writer's).
    public var time: Date

    public init(runID: RunID, key: String, step: Int, value: Double, time: Date) {
        self.runID = runID; self.key = key; self.step = step; self.value = value; self.time = time
    }

    public enum Columns {
        public static let runID = Column(CodingKeys.runID)
        public static let key = Column(CodingKeys.key)
        public static let step = Column(CodingKeys.step)
        public static let value = Column(CodingKeys.value)
        public static let time = Column(CodingKeys.time)
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", key, step, value, time
    }
}

/// One row of `run_tags`: a label of a run (`stage=candidate`). Unlike a parameter, a tag takes a
/// new value when it is set again (while the run is running).
public struct RunTagRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "run_tags"
    public var runID: RunID
    public var key: String
    public var value: String

    public init(runID: RunID, key: String, value: String) {
        self.runID = runID; self.key = key; self.value = value
    }

    public enum Columns {
        public static let runID = Column(CodingKeys.runID)
        public static let key = Column(CodingKeys.key)
        public static let value = Column(CodingKeys.value)
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", key, value
    }
}
