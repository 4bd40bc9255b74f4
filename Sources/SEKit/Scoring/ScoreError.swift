import Foundation

/// Errors that stop scoring before any clip is scored (per-clip problems are recorded instead).
public enum ScoreError: Error, Equatable, CustomStringConvertible, Sendable {
    case invalidOption(name: String, value: String, reason: String)
    case noPairs(reason: String)
    /// Metrics that compare against a clean reference were asked for without references.
    case needsReference(metrics: [String])

    public var description: String {
        switch self {
        case .invalidOption(let name, let value, let reason): "\(name) \(value): \(reason)"
        case .noPairs(let reason): "nothing to score: \(reason)"
        case .needsReference(let metrics):
            "\(metrics.joined(separator: ", ")) compare\(metrics.count == 1 ? "s" : "") against a clean reference: give --reference DIR " +
                "or --corpus OUT, or ask only for metrics that need none " +
                "(\(MetricRegistry.all.filter { !$0.needsReference }.flatMap(\.outputs).map(\.metric.rawValue).joined(separator: ", ")))"
        }
    }
}
