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
    /// Rates it accepts; other rates are a per-clip error.
    public var sampleRates: SampleRateSupport
    /// Where the definition comes from (paper, equation, reference implementation).
    public var reference: String
    public var backend: MetricBackend

    /// Computes every output for one comparison.
    ///
    /// What no metric can score is refused for all of them, before computing: a silent (all-zero)
    /// reference, and a rate the metric does not accept. A value that comes out NaN (0/0: a silent
    /// or constant processed signal for the scale-invariant ratios) is an error naming the output
    /// and the likely cause, never a number. Infinite values are kept: +inf is a perfect estimate.
    /// - Throws: ``MetricError`` (too short, silent reference, undefined, mismatched, unsupported
    ///   rate, non-finite input).
    public func compute(_ comparison: MetricComparison, workspace: MetricWorkspace) throws -> [Metric: Double] {
        let rate = comparison.reference.sampleRate
        guard sampleRates.accepts(rate) else {
            throw MetricError.invalidParameter(name: "sampleRate", value: "\(rate)", reason: "\(name) accepts \(sampleRates)")
        }
        guard !comparison.reference.isSilent else { throw MetricError.silentReference(metric: name) }
        let values: [Double]
        switch backend {
        case .native(let compute):
            values = try compute(comparison, workspace)
        }
        precondition(values.count == outputs.count, "\(name) returned \(values.count) values for \(outputs.count) outputs")
        for (output, value) in zip(outputs, values) where value.isNaN {
            throw MetricError.undefined(metric: output.metric.rawValue, reason: comparison.likelyCauseOfUndefinedValue)
        }
        return Dictionary(uniqueKeysWithValues: zip(outputs.map(\.metric), values))
    }
}
