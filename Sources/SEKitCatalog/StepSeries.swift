import Foundation
import GRDB

/// The per-step values of one metric of a run (`run_step_metrics`), in step order.
public struct StepSeries: Sendable, Codable, Equatable {
    public var key: String
    /// Steps, ascending.
    public var steps: [Int]
    /// The value at each of `steps`.
    public var values: [Double]

    public init(key: String, steps: [Int], values: [Double]) {
        self.key = key; self.steps = steps; self.values = values
    }

    /// The value at the last step (what `metrics.KEY.last` filters and sorts by).
    public var last: Double? { values.last }
    /// The value at the first step.
    public var first: Double? { values.first }
    /// The smallest value and the first step where it was reached.
    public var minimum: (value: Double, step: Int)? { extreme(by: <) }
    /// The largest value and the first step where it was reached.
    public var maximum: (value: Double, step: Int)? { extreme(by: >) }

    private func extreme(by better: (Double, Double) -> Bool) -> (value: Double, step: Int)? {
        guard var best = values.indices.first else { return nil }
        for index in values.indices where better(values[index], values[best]) { best = index }
        return (values[best], steps[best])
    }

    /// Every series of `run`, by key.
    package static func all(of run: RunID, _ db: Database) throws -> [StepSeries] {
        var series: [StepSeries] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT key, step, value FROM run_step_metrics WHERE run_id = ? ORDER BY key, step",
                                       arguments: [run])
        while let row = try rows.next() {
            let key: String = row[0]
            if series.last?.key != key { series.append(StepSeries(key: key, steps: [], values: [])) }
            series[series.count - 1].steps.append(row[1])
            series[series.count - 1].values.append(row[2])
        }
        return series
    }
}

extension Array {
    /// nil for an empty array (a JSON member left out), else the array.
    package var nilIfEmpty: [Element]? { isEmpty ? nil : self }
}
