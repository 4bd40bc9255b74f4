import Foundation

/// The running Python metric workers of one scoring: each scoring thread's ``MetricWorkspace``
/// takes one when it first needs it and gives it back when it is done, so a worker is started
/// once per thread (not per clip) and reused by the next scoring that uses this pool. Dropping
/// the pool stops its idle workers.
public final class PythonWorkerPool: @unchecked Sendable {
    public let environment: PythonEnvironment
    // Guarded by `lock`.
    private var idle: [PythonMetricWorker] = []
    private let lock = NSLock()

    public init(environment: PythonEnvironment = .located()) {
        self.environment = environment
    }

    /// An idle worker, or a new one.
    func take() throws(PythonMetricWorker.Failure) -> PythonMetricWorker {
        lock.lock()
        let worker = idle.popLast()
        lock.unlock()
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
    /// - Parameter metrics: the requested metrics that need the packages (for the message).
    /// - Throws: ``MetricBackendError`` naming the metrics, the interpreter and what is wrong.
    public func describe(packages: [String], for metrics: [String]) throws(MetricBackendError) -> PythonBackendDescription {
        func failure(_ reason: String) -> MetricBackendError {
            MetricBackendError(metrics: metrics, interpreter: environment.interpreter.path, reason: reason)
        }
        do {
            let worker = try take()
            defer { giveBack(worker) }
            return try worker.describe(packages: packages)
        } catch {
            switch error {
            case .environment(let reason): throw failure(reason)
            case .died(let reason): throw failure("could not run SEKit's worker (\(environment.workerScript.path)): \(reason)")
            case .metric(let reason): throw failure(reason)
            }
        }
    }
}
