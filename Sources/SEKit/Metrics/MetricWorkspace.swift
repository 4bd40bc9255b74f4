/// One worker's scratch state for computing metrics: buffers and tables that are expensive to
/// make and reused clip after clip (STOI's buffers and resampling filters), and the worker's
/// Python process for the reference implementations that run there (PESQ, DNSMOS). Make one per
/// worker thread (`ParallelMap` `workerState`) and pass it to every computation on that thread;
/// never share one between threads.
public final class MetricWorkspace {
    /// STOI's scratch buffers and 10 kHz resampling filters, made when first needed.
    lazy var stoi = STOI.Workspace()
    /// Where this workspace's Python worker comes from (a pool of its own unless given one).
    lazy var pythonPool = PythonWorkerPool()
    /// This thread's Python worker, started on first use and replaced when it dies.
    private var python: PythonMetricWorker?
    /// What the metrics that take samples in [−1, 1] only do with a signal beyond full scale.
    public var fullScale: FullScalePolicy = .refuse
    /// What ``withinFullScale(_:for:)`` did to the signals since the scorer last took the notes (one
    /// line per distinct action: the signal goes to several metrics).
    private(set) var fullScaleNotes: [String] = []

    /// The notes since the last call, emptied.
    func takeFullScaleNotes() -> [String] {
        defer { fullScaleNotes = [] }
        return fullScaleNotes
    }

    func noteFullScale(_ note: String) {
        if !fullScaleNotes.contains(note) { fullScaleNotes.append(note) }
    }

    /// - Parameter pythonPool: the scoring's Python workers (nil: a pool of this workspace's
    ///   own, made on first need from ``PythonEnvironment/located(_:executable:)``).
    public init(pythonPool: PythonWorkerPool? = nil) {
        if let pythonPool { self.pythonPool = pythonPool }
    }

    deinit {
        if let python { pythonPool.giveBack(python) }
    }

    /// Runs `op` in this thread's Python worker and returns its values.
    /// - Parameter implementation: the reference implementation's name for messages (`pesq`).
    /// - Throws: `MetricError.referenceImplementation(name:reason:)` when it refuses the input
    ///   or the worker dies (the dead worker is dropped; the next call starts another) or does not
    ///   answer in time (it is killed, and the pool starts no other: ``PythonWorkerPool/expired``).
    func pythonValues(_ implementation: String, _ op: String, _ fields: [String: Any], signals: [[Float]]) throws -> [Double] {
        do throws(PythonMetricWorker.Failure) {
            if python == nil { python = try pythonPool.take() }
            return try PythonMetricWorker.values(try python!.call(op, fields, signals: signals))
        } catch {
            switch error {
            case .metric(let reason):
                throw MetricError.referenceImplementation(name: implementation, reason: reason)
            case .environment(let reason):
                throw MetricError.referenceImplementation(name: implementation,
                        reason: "Python environment \(pythonPool.environment.interpreter.path): \(reason)")
            case .died(let reason):
                python = nil
                throw MetricError.referenceImplementation(name: implementation,
                                                          reason: "its worker process failed (\(reason)); a new one takes the next clip")
            case .timedOut(let expired):
                // The scoring stops with the error (``PythonWorkerPool/expired``).
                python = nil
                pythonPool.recordTimeout(expired)
                throw MetricError.referenceImplementation(name: implementation, reason: "its worker \(expired) and was killed")
            }
        }
    }
}
