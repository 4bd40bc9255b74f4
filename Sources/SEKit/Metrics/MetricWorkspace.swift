/// A reference signal being scored, with the analyses metrics made of it for this clip (STOI's
/// kept frames and band envelopes), so that comparing an enhanced output and a noisy input against
/// the same reference analyses it once. Lives for one clip, on one thread.
///
/// Samples are held as read, in Float; metrics promote each to Double where they compute (exact),
/// so an hour-long clip costs 4 bytes a sample, not 8.
public final class ReferenceSignal {
    public let samples: [Float]
    /// Hz.
    public let sampleRate: Int
    private var analyses = AnalysisStore()

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples; self.sampleRate = sampleRate
    }

    /// The analysis stored under `key`, made by `make` the first time.
    func analysis<T>(_ key: String, _ make: () throws -> T) rethrows -> T { try analyses.value(key, make) }

    /// Whether every sample is zero (no metric can score against it).
    public var isSilent: Bool { analysis("silent") { !samples.contains { $0 != 0 } } }
}

/// One comparison to score: a processed signal against a reference, with the analyses shared by
/// the metrics that score this pair (STOI and ESTOI share the band envelopes). Lives for one
/// comparison, on one thread.
public final class MetricComparison {
    public let reference: ReferenceSignal
    /// The processed signal, as read (Float, like the reference's).
    public let processed: [Float]
    private var analyses = AnalysisStore()

    public init(reference: ReferenceSignal, processed: [Float]) {
        self.reference = reference; self.processed = processed
    }

    /// The analysis stored under `key`, made by `make` the first time.
    func analysis<T>(_ key: String, _ make: () throws -> T) rethrows -> T { try analyses.value(key, make) }

    /// Why a metric of this pair came out NaN: what is special about the processed signal.
    var likelyCauseOfUndefinedValue: String {
        guard let first = processed.first else { return "the signals are empty" }
        if !processed.contains(where: { $0 != 0 }) { return "the processed signal is silent (all zeros)" }
        if !processed.contains(where: { $0 != first }) { return "the processed signal is constant" }
        return "the value is 0/0 for this pair"
    }
}

/// Analyses by name, each made once (a metric's intermediate results for one signal or pair).
struct AnalysisStore {
    private var values: [String: Any] = [:]

    mutating func value<T>(_ key: String, _ make: () throws -> T) rethrows -> T {
        if let found = values[key] as? T { return found }
        let made = try make()
        values[key] = made
        return made
    }
}

/// One worker's scratch state for computing metrics: buffers and tables that are expensive to
/// make and reused clip after clip (STOI's buffers and resampling filters). Make one per worker
/// thread (``ParallelMap`` `workerState`) and pass it to every computation on that thread;
/// never share one between threads.
public final class MetricWorkspace {
    /// STOI's scratch buffers and 10 kHz resampling filters, made when first needed.
    lazy var stoi = STOI.Workspace()

    public init() {}
}
