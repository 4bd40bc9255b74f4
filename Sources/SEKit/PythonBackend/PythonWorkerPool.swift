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
    /// Workers ``warm(_:packages:models:)`` is starting.
    private var starting = 0
    private let lock = NSCondition()

    /// The first timeout a worker of this pool ran into, if any: from then on the pool starts no
    /// worker (every request fails at once) and the scoring stops with the error.
    public var expired: PythonWorkerTimeouts.Expired? { lock.withLock { firstExpired } }

    /// Records that a worker did not answer in time (it was killed).
    func recordTimeout(_ expired: PythonWorkerTimeouts.Expired) {
        lock.withLock {
            if firstExpired == nil { firstExpired = expired }
            lock.broadcast()
        }
    }

    /// The workers idle in the pool and those being started (for tests).
    var counts: (idle: Int, starting: Int) { lock.withLock { (idle.count, starting) } }

    public init(environment: PythonEnvironment = .located()) {
        self.environment = environment
    }

    /// An idle worker (with `waiting`, waiting for one that ``warm(_:packages:models:)`` is
    /// starting), or a new one.
    func take(waiting: Bool = true) throws(PythonMetricWorker.Failure) -> PythonMetricWorker {
        lock.lock()
        while waiting && idle.isEmpty && starting > 0 && firstExpired == nil { lock.wait() }
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
        lock.broadcast()
        lock.unlock()
    }

    /// Starts `count` workers in the background, each importing `packages` (the worker's `describe`
    /// request, its answer dropped), so that the threads of a scoring with `--jobs N` find N workers
    /// ready at about the time the first has answered, instead of each starting its own (and
    /// importing the packages) at its first clip. A thread taking a worker waits for one of these
    /// rather than starting another; a worker that fails to start is dropped (the next thread starts
    /// one and reports the failure).
    public func warm(_ count: Int, packages: [String], models: [String] = []) {
        guard count > 0 else { return }
        lock.lock()
        starting += count
        lock.unlock()
        for _ in 0..<count {
            Thread.detachNewThread { [self] in
                if let worker = try? PythonMetricWorker(environment), (try? worker.describe(packages: packages, models: models)) != nil {
                    giveBack(worker)
                }
                lock.lock()
                starting -= 1
                lock.broadcast()
                lock.unlock()
            }
        }
    }

    /// Checks, before any clip is scored, that the environment runs `packages` (importing each)
    /// and says what it has; the worker that answered stays in the pool for the first clip.
    /// - Parameters:
    ///   - models: the computations whose model file's SHA-256 the answer gives (`plcmos`).
    ///   - metrics: the requested metrics that need the packages (for the message).
    ///   - warming: how many workers besides this one the scoring's threads will take
    ///     (`min(jobs, clips) - 1`): those the pool does not have idle are started meanwhile
    ///     (``warm(_:packages:models:)``).
    /// - Throws: ``MetricBackendError`` naming the metrics, the interpreter and what is wrong (a
    ///   worker that does not start and answer within the start-up timeout is killed and named).
    public func describe(packages: [String], models: [String] = [], for metrics: [String],
                         warming: Int = 0) throws(MetricBackendError) -> PythonBackendDescription {
        func failure(_ reason: String) -> MetricBackendError {
            MetricBackendError(metrics: metrics, interpreter: environment.interpreter.path, reason: reason)
        }
        if let invalid = environment.timeouts.invalidSetting {
            throw MetricBackendError(metrics: metrics, interpreter: environment.interpreter.path, reason: "cannot be timed: \(invalid)",
                                     remedy: "set it to the seconds a worker may take, or unset it for the default")
        }
        // Workers an earlier scoring left idle (or is starting) count: this one uses one of them, or starts its own.
        let ready = lock.withLock { idle.count + starting }
        warm(warming + 1 - max(ready, 1), packages: packages, models: models)
        do {
            let worker = try take(waiting: false)
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
