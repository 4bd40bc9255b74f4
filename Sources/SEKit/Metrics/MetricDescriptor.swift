/// One value a metric reports, with what a reader needs to interpret it.
public struct MetricOutput: Sendable, Equatable {
    /// Its name (command line, JSON, CSV, catalogue).
    public var metric: Metric
    /// Unit: `dB`, or `""` for a dimensionless score (STOI's 0...1, a MOS).
    public var unit: String
    /// Whether a larger value is better.
    public var higherIsBetter: Bool

    public init(_ name: String, unit: String, higherIsBetter: Bool = true) {
        metric = Metric(declared: name); self.unit = unit; self.higherIsBetter = higherIsBetter
    }
}

/// Sample rates a metric accepts as given.
public enum SampleRateSupport: Sendable, Equatable {
    /// Any positive rate.
    case any
    /// Only these rates, Hz (e.g. P.862 PESQ: 8000 and 16000).
    case only([Int])

    public func accepts(_ sampleRate: Int) -> Bool {
        switch self {
        case .any: sampleRate > 0
        case .only(let rates): rates.contains(sampleRate)
        }
    }
}

/// How a metric is computed.
public enum MetricBackend: Sendable {
    /// In this process, in Swift: the outputs' values (in ``MetricDescriptor/outputs`` order) of
    /// one comparison, with the worker's scratch state.
    case native(@Sendable (MetricComparison, MetricWorkspace) throws -> [Double])
    /// By a published reference implementation in SEKit's Python worker
    /// (`Sources/SEKit/Resources/sekit_metric_worker.py`, built in: ``PythonWorkerModule``): the Python
    /// packages it runs (checked, and their versions recorded, before any clip is scored), and
    /// the computation, which reaches the worker through ``MetricWorkspace`` (PESQ through the
    /// `pesq` package's ITU-T code, DNSMOS through `speechmos`' ONNX models; the composite
    /// measures combine PESQ with native LLR, WSS and segSNR).
    case python(packages: [String], @Sendable (MetricComparison, MetricWorkspace) throws -> [Double])

    /// The Python packages this backend needs (none for a native metric).
    public var pythonPackages: [String] {
        switch self {
        case .native: []
        case .python(let packages, _): packages
        }
    }
}

/// A metric SEKit can compute: one computation producing one or more named outputs.
///
/// To add a metric: write it as a pure function in `Sources/SEKit/Metrics/` (paper and equation
/// in its doc comment), then add one descriptor to ``MetricRegistry/all``. The command line,
/// score JSON/CSV, summaries and catalogue pick it up by its output names.
public struct MetricDescriptor: Sendable {
    /// The computation's name (for a single-output metric, its output's name).
    public var name: String
    /// What it reports, in order.
    public var outputs: [MetricOutput]
    /// Rates it accepts as they are.
    public var sampleRates: SampleRateSupport
    /// The rate (Hz) a signal at any other rate is converted to first (SEKit's soxr resampler);
    /// nil: other rates are a per-clip error.
    public var resampledRate: Int? = nil
    /// Whether it compares against a clean reference (intrusive); DNSMOS does not.
    public var needsReference = true
    /// Where the definition comes from (paper, equation, reference implementation).
    public var reference: String
    /// Whether a score run records the SHA-256 of the model file this Python-run predictor reads
    /// from its installed package, as the run parameter `<name>_model_sha256` (``PythonBackendDescription``).
    public var recordsModelSHA256 = false
    public var backend: MetricBackend

    /// Computes every output for one comparison.
    ///
    /// What no metric can score is refused for all of them, before computing: a missing or
    /// silent (all-zero) reference for an intrusive metric, and a rate the metric neither accepts
    /// nor converts. A value that comes out NaN (0/0: a silent or constant processed signal for
    /// the scale-invariant ratios) is an error naming the output and the likely cause, never a
    /// number. Infinite values are kept: +inf is a perfect estimate.
    /// - Throws: `MetricError` (too short, missing or silent reference, undefined, mismatched,
    ///   unsupported rate, non-finite input, a reference implementation's refusal).
    public func compute(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Metric: Double] {
        var comparison = comparison
        if !sampleRates.accepts(comparison.sampleRate) {
            guard let resampledRate else {
                throw MetricError.invalidParameter(name: "sampleRate", value: "\(comparison.sampleRate)",
                                                   reason: "\(name) accepts \(sampleRates)")
            }
            comparison = try comparison.resampled(to: resampledRate)
        }
        if needsReference {
            guard comparison.hasReference else { throw MetricError.needsReference(metric: name) }
            guard !comparison.reference.isSilent else { throw MetricError.silentReference(metric: name) }
        }
        let values: [Double]
        switch backend {
        case .native(let compute), .python(_, let compute):
            values = try compute(comparison, workspace)
        }
        precondition(values.count == outputs.count, "\(name) returned \(values.count) values for \(outputs.count) outputs")
        for (output, value) in zip(outputs, values) where value.isNaN {
            throw MetricError.undefined(metric: output.metric.rawValue, reason: comparison.likelyCauseOfUndefinedValue)
        }
        return Dictionary(uniqueKeysWithValues: zip(outputs.map(\.metric), values))
    }
}
