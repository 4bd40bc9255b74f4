/// Every metric SEKit computes, in the order the command line lists them.
public enum MetricRegistry {
    /// The registered metrics. Output names are unique across the registry.
    public static let all: [MetricDescriptor] = [
        single("snr", unit: "dB", reference: "10·log10(Σs² / Σ(s−ŝ)²)") { c, _ in
            try SignalRatios.snr(reference: c.reference.samples, processed: c.processed)
        },
        single("segsnr", unit: "dB", reference: "segmental SNR, Loizou (2013) comp_snr.m") { c, _ in
            try SegmentalSNR.compute(reference: c.reference.samples, processed: c.processed, sampleRate: c.reference.sampleRate)
        },
        single("sisdr", unit: "dB", reference: "SI-SDR, Le Roux et al. (ICASSP 2019), no mean removal") { c, _ in
            try SignalRatios.siSDR(reference: c.reference.samples, processed: c.processed)
        },
        single("sisnr", unit: "dB", reference: "SI-SNR, zero-mean SI-SDR (Luo & Mesgarani 2018)") { c, _ in
            try SignalRatios.siSNR(reference: c.reference.samples, processed: c.processed)
        },
        single("stoi", unit: "", reference: "STOI, Taal et al. (IEEE TASLP 2011), as pystoi 0.4.1") { c, w in
            try STOI.compute(c, extended: false, workspace: w)
        },
        single("estoi", unit: "", reference: "ESTOI, Jensen & Taal (IEEE TASLP 2016), as pystoi 0.4.1") { c, w in
            try STOI.compute(c, extended: true, workspace: w)
        },
        single("fwsegsnr", unit: "dB", reference: "frequency-weighted segmental SNR, Loizou (2013) comp_fwseg.m") { c, _ in
            try FrequencyWeightedSegmentalSNR.compute(reference: c.reference.samples, processed: c.processed, sampleRate: c.reference.sampleRate)
        },
        single("llr", unit: "", higherIsBetter: false, reference: "log-likelihood ratio, Loizou (2013) comp_llr.m") { c, _ in
            try LPCMeasures.llr(reference: c.reference.samples, processed: c.processed, sampleRate: c.reference.sampleRate)
        },
        single("wss", unit: "", higherIsBetter: false, reference: "weighted spectral slope, Klatt (1982), Loizou (2013) comp_wss.m") { c, _ in
            try WeightedSpectralSlope.compute(reference: c.reference.samples, processed: c.processed, sampleRate: c.reference.sampleRate)
        },
        single("cd", unit: "dB", higherIsBetter: false, reference: "cepstral distance, Loizou (2013) comp_cep.m") { c, _ in
            try LPCMeasures.cepstralDistance(reference: c.reference.samples, processed: c.processed, sampleRate: c.reference.sampleRate)
        },
    ]

    /// The descriptor named `name` (a computation's name).
    public static func descriptor(named name: String) -> MetricDescriptor? { all.first { $0.name == name } }

    /// The descriptor that produces output `name`.
    public static func descriptor(producing name: String) -> MetricDescriptor? {
        all.first { $0.outputs.contains { $0.metric.rawValue == name } }
    }

    /// The computations needed for `metrics`, each once, in the order first needed.
    public static func descriptors(for metrics: [Metric]) -> [MetricDescriptor] {
        var names: [String] = []
        for metric in metrics {
            if let d = descriptor(producing: metric.rawValue), !names.contains(d.name) { names.append(d.name) }
        }
        return names.map { descriptor(named: $0)! }
    }

    /// A one-output native metric.
    static func single(_ name: String, unit: String, higherIsBetter: Bool = true, rates: SampleRateSupport = .any, reference: String,
                       _ compute: @escaping @Sendable (MetricComparison, MetricWorkspace) throws -> Double) -> MetricDescriptor {
        MetricDescriptor(name: name, outputs: [MetricOutput(name, unit: unit, higherIsBetter: higherIsBetter)],
                         sampleRates: rates, reference: reference, backend: .native { c, w in [try compute(c, w)] })
    }
}

extension Metric {
    /// This output for one pair: a convenience for one-off use (a scorer keeps one
    /// ``MetricWorkspace`` per worker and one ``ReferenceSignal`` per clip instead).
    /// - Throws: ``MetricError``.
    public func compute(reference: [Float], processed: [Float], sampleRate: Int) throws -> Double {
        let comparison = MetricComparison(reference: ReferenceSignal(samples: reference, sampleRate: sampleRate), processed: processed)
        return try MetricRegistry.descriptor(producing: rawValue)!.compute(comparison, workspace: MetricWorkspace())[self]!
    }
}
