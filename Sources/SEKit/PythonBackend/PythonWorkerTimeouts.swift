import Foundation

/// How long SEKit waits for its Python metric worker before it kills it and stops: a worker that
/// never answers (a hung import, a deadlocked library) ends in a named error instead of a `score`
/// that never returns.
///
/// - start-up: a new worker has `startSeconds` to start and answer its first request (on top of
///   the per-clip time when that request is a clip's); `SEKIT_PYTHON_START_TIMEOUT_SECONDS`,
///   default 120;
/// - per clip: each request for a clip's values has `clipSeconds`;
///   `SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS`, default 600.
public struct PythonWorkerTimeouts: Sendable, Equatable {
    /// The environment variables that set them.
    public static let startVariable = "SEKIT_PYTHON_START_TIMEOUT_SECONDS"
    public static let clipVariable = "SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS"
    public static let defaultStartSeconds: Double = 120
    public static let defaultClipSeconds: Double = 600

    public var startSeconds: Double
    public var clipSeconds: Double
    /// Why a variable was not taken (`NAME=VALUE is not a positive number of seconds`); the scoring
    /// refuses to start with it.
    public var invalidSetting: String?

    public init(startSeconds: Double = defaultStartSeconds, clipSeconds: Double = defaultClipSeconds) {
        self.startSeconds = startSeconds; self.clipSeconds = clipSeconds
    }

    /// The timeouts the process environment sets (defaults for variables not set).
    public static func from(_ environment: [String: String]) -> PythonWorkerTimeouts {
        var timeouts = PythonWorkerTimeouts()
        for (name, keyPath) in [(startVariable, \PythonWorkerTimeouts.startSeconds), (clipVariable, \PythonWorkerTimeouts.clipSeconds)] {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { continue }
            if let seconds = Double(text), seconds.isFinite, seconds > 0 {
                timeouts[keyPath: keyPath] = seconds
            } else {
                timeouts.invalidSetting = "\(name)=\(text) is not a positive number of seconds"
            }
        }
        return timeouts
    }

    /// A timeout that expired: the worker was killed.
    public struct Expired: Error, Sendable, Equatable, CustomStringConvertible {
        /// The time it had.
        public var seconds: Double
        /// Whether it had not answered any request yet (the start-up timeout applied).
        public var starting: Bool
        /// The request it did not answer (`describe`, `pesq`, `dnsmos`).
        public var operation: String

        public var description: String {
            let time = seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
            if operation == "describe" {
                return "did not start and answer within \(time) s (\(PythonWorkerTimeouts.startVariable))"
            }
            let limits = starting ? "start-up \(PythonWorkerTimeouts.startVariable) + per-clip \(PythonWorkerTimeouts.clipVariable)"
                : PythonWorkerTimeouts.clipVariable
            return "did not answer a \(operation) request within \(time) s (\(limits))"
        }
    }
}
