import Foundation

/// The running Python metric workers of one scoring: each scoring thread's ``MetricWorkspace``
/// takes one when it first needs it and gives it back when it is done, so a worker is started
/// once per thread (not per clip) and reused by the next scoring that uses this pool. Dropping
/// the pool stops its idle workers.
public final class PythonWorkerPool: @unchecked Sendable {
    public let environment: PythonEnvironment
    // Guarded by `lock`.
    private var idle: [PythonMetricWorker] = []
    private var firstExpired: PythonWorkerTimeouts.Expired?
    private let lock = NSLock()

    /// The first timeout a worker of this pool ran into, if any: from then on the pool starts no
    /// worker (every request fails at once) and the scoring stops with the error.
    public var expired: PythonWorkerTimeouts.Expired? { lock.withLock { firstExpired } }

    /// Records that a worker did not answer in time (it was killed).
    func recordTimeout(_ expired: PythonWorkerTimeouts.Expired) {
        lock.withLock { if firstExpired == nil { firstExpired = expired } }
    }

    public init(environment: PythonEnvironment = .located()) {
        self.environment = environment
    }

    /// An idle worker, or a new one.
    func take() throws(PythonMetricWorker.Failure) -> PythonMetricWorker {
        lock.lock()
        let worker = idle.popLast()
        let expired = firstExpired
        lock.unlock()
        if let expired { throw .timedOut(expired) }
        if let worker { return worker }
        return try PythonMetricWorker(environment)
    }

    /// Returns a worker that is still alive for reuse.
    func giveBack(_ worker: PythonMetricWorker) {
        guard !worker.hasExited else { return }
        lock.lock()
        idle.append(worker)
        lock.unlock()
    }

    /// Checks, before any clip is scored, that the environment runs `packages` (importing each)
    /// and says what it has; the worker that answered stays in the pool for the first clip.
    /// - Parameters:
    ///   - models: the computations whose model file's SHA-256 the answer gives (`plcmos`).
    ///   - metrics: the requested metrics that need the packages (for the message).
    /// - Throws: ``MetricBackendError`` naming the metrics, the interpreter and what is wrong (a
    ///   worker that does not start and answer within the start-up timeout is killed and named).
    public func describe(packages: [String], models: [String] = [],
                         for metrics: [String]) throws(MetricBackendError) -> PythonBackendDescription {
        func failure(_ reason: String) -> MetricBackendError {
            MetricBackendError(metrics: metrics, interpreter: environment.interpreter.path, reason: reason)
        }
        if let invalid = environment.timeouts.invalidSetting {
            throw MetricBackendError(metrics: metrics, interpreter: environment.interpreter.path, reason: "cannot be timed: \(invalid)",
                                     remedy: "set it to the seconds a worker may take, or unset it for the default")
        }
        do {
            let worker = try take()
            defer { giveBack(worker) }
            return try worker.describe(packages: packages, models: models)
        } catch {
            switch error {
            case .environment(let reason): throw failure(reason)
            case .died(let reason): throw failure("could not run SEKit's worker (\(environment.workerScript.path)): \(reason)")
            case .metric(let reason): throw failure(reason)
            case .timedOut(let expired):
                recordTimeout(expired)
                throw MetricBackendError.timedOut(expired, metrics: metrics, interpreter: environment.interpreter.path)
            }
        }
    }
}
