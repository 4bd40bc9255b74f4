/// Every metric SEKit computes, in the order the command line lists them.
public enum MetricRegistry {
    /// The registered metrics. Output names are unique across the registry.
    public static let all: [MetricDescriptor] = [
        single("snr", unit: "dB", reference: "10·log10(Σs² / Σ(s−ŝ)²)") { c, _ in
            try SignalRatios.snr(reference: c.reference.samples, processed: c.processed)
        },
        single("segsnr", unit: "dB", reference: "segmental SNR, Loizou (2013) comp_snr.m") { c, _ in
            try SegmentalSNR.compute(c)
        },
        single("sisdr", unit: "dB", reference: "SI-SDR, Le Roux et al. (ICASSP 2019), no mean removal") { c, _ in
            try SignalRatios.siSDR(reference: c.reference.samples, processed: c.processed)
        },
        single("sisnr", unit: "dB", reference: "SI-SNR, zero-mean SI-SDR (Luo & Mesgarani 2018)") { c, _ in
            try SignalRatios.siSNR(reference: c.reference.samples, processed: c.processed)
        },
        single("stoi", unit: "", reference: "STOI, Taal et al. (IEEE TASLP 2011), as pystoi 0.4.1") { c, w in
            try STOI.compute(c, extended: false, workspace: w.stoi)
        },
        single("estoi", unit: "", reference: "ESTOI, Jensen & Taal (IEEE TASLP 2016), as pystoi 0.4.1") { c, w in
            try STOI.compute(c, extended: true, workspace: w.stoi)
        },
        single("fwsegsnr", unit: "dB", reference: "frequency-weighted segmental SNR, Loizou (2013) comp_fwseg.m") { c, _ in
            try FrequencyWeightedSegmentalSNR.compute(reference: c.reference.samples, processed: c.processed,
                                                      sampleRate: c.reference.sampleRate)
        },
        single("llr", unit: "", higherIsBetter: false, reference: "log-likelihood ratio, Loizou (2013) comp_llr.m") { c, _ in
            try LPCMeasures.llr(reference: c.reference.samples, processed: c.processed, sampleRate: c.reference.sampleRate)
        },
        single("wss", unit: "", higherIsBetter: false,
               reference: "weighted spectral slope, Klatt (1982), Loizou (2013) comp_wss.m") { c, _ in
            try WeightedSpectralSlope.compute(c)
        },
        single("cd", unit: "dB", higherIsBetter: false, reference: "cepstral distance, Loizou (2013) comp_cep.m") { c, _ in
            try LPCMeasures.cepstralDistance(reference: c.reference.samples, processed: c.processed, sampleRate: c.reference.sampleRate)
        },
        pesq("pesq_wb", .wideband, reference: "PESQ wide-band MOS-LQO, ITU-T P.862.2 reference code (pesq package)"),
        pesq("pesq_nb", .narrowband, reference: "PESQ narrow-band MOS-LQO, ITU-T P.862 + P.862.1 reference code (pesq package)"),
        MetricDescriptor(
            name: "composite", outputs: [MetricOutput("csig", unit: ""), MetricOutput("cbak", unit: ""), MetricOutput("covl", unit: "")],
            sampleRates: .only([16000]), resampledRate: 16000,
            reference: "CSIG/CBAK/COVL, Hu & Loizou (IEEE TASLP 2008) composite.m, with pesq_wb",
            backend: .python(packages: ["pesq"]) { c, w in try CompositeMeasures.compute(c, workspace: w) }),
        MetricDescriptor(
            name: "dnsmos",
            outputs: [MetricOutput("dnsmos_sig", unit: ""), MetricOutput("dnsmos_bak", unit: ""), MetricOutput("dnsmos_ovrl", unit: ""),
                      MetricOutput("dnsmos_p808", unit: "")],
            sampleRates: .only([DNSMOS.sampleRate]), resampledRate: DNSMOS.sampleRate, needsReference: false,
            reference: "DNSMOS P.835 (Reddy et al. 2022) and P.808 (2021), speechmos ONNX models, no reference",
            backend: .python(packages: ["speechmos"]) { c, w in try DNSMOS.compute(c, workspace: w) }),
    ] + predictors + challengeMeasures

    /// The descriptor named `name` (a computation's name).
    public static func descriptor(named name: String) -> MetricDescriptor? { all.first { $0.name == name } }

    /// The descriptor that produces output `name`.
    public static func descriptor(producing name: String) -> MetricDescriptor? {
        all.first { $0.outputs.contains { $0.metric.rawValue == name } }
    }

    /// The outputs `name` stands for: the output of that name, or every output of the computation
    /// of that name (`dnsmos` → `dnsmos_sig`, `dnsmos_bak`, `dnsmos_ovrl`, `dnsmos_p808`;
    /// `composite` → `csig`, `cbak`, `covl`); nil when neither exists.
    public static func outputs(named name: String) -> [Metric]? {
        if let metric = Metric(rawValue: name) { return [metric] }
        return descriptor(named: name)?.outputs.map(\.metric)
    }

    /// Names the command line accepts: every output, then the computations with several outputs.
    public static var acceptedNames: [String] {
        Metric.allCases.map(\.rawValue) + all.filter { $0.outputs.count > 1 }.map(\.name)
    }

    /// The computations needed for `metrics`, each once, in the order first needed.
    public static func descriptors(for metrics: [Metric]) -> [MetricDescriptor] {
        var names: [String] = []
        for metric in metrics {
            if let d = descriptor(producing: metric.rawValue), !names.contains(d.name) { names.append(d.name) }
        }
        return names.map { descriptor(named: $0)! }
    }

    /// PESQ in one mode: 8 and 16 kHz as they are, other rates converted to 16 kHz.
    static func pesq(_ name: String, _ mode: PESQ.Mode, reference: String) -> MetricDescriptor {
        MetricDescriptor(name: name, outputs: [MetricOutput(name, unit: "")], sampleRates: .only([8000, 16000]), resampledRate: 16000,
                         reference: reference, backend: .python(packages: ["pesq"]) { c, w in [try PESQ.compute(c, mode: mode,
                                                                                                                workspace: w)] })
    }

    /// The Python packages `metrics` need, each once, with the metrics needing any (for the
    /// pre-flight check and the run's record) and the computations whose model file's SHA-256 the
    /// run records (``MetricDescriptor/recordsModelSHA256``).
    public static func pythonPackages(for metrics: [Metric])
        -> (packages: [String], metrics: [String], models: [String]) {
        var packages: [String] = [], names: [String] = [], models: [String] = []
        for descriptor in descriptors(for: metrics) where !descriptor.backend.pythonPackages.isEmpty {
            for package in descriptor.backend.pythonPackages where !packages.contains(package) { packages.append(package) }
            names += descriptor.outputs.map(\.metric).filter(metrics.contains).map(\.rawValue)
            if descriptor.recordsModelSHA256 { models.append(descriptor.name) }
        }
        return (packages, names, models)
    }

    /// The requested outputs that compare against a clean reference.
    public static func intrusive(_ metrics: [Metric]) -> [Metric] {
        metrics.filter { descriptor(producing: $0.rawValue)?.needsReference ?? true }
    }

    /// A one-output native metric (`needsReference` false: non-intrusive, it reads the processed signal only).
    static func single(_ name: String, unit: String, higherIsBetter: Bool = true, rates: SampleRateSupport = .any,
                       needsReference: Bool = true, reference: String,
                       _ compute: @escaping @Sendable (MetricComparison, MetricWorkspace) throws -> Double) -> MetricDescriptor {
        MetricDescriptor(name: name, outputs: [MetricOutput(name, unit: unit, higherIsBetter: higherIsBetter)],
                         sampleRates: rates, needsReference: needsReference, reference: reference,
                         backend: .native { c, w in [try compute(c, w)] })
    }
}

extension Metric {
    /// This output for one pair: a convenience for one-off use (a scorer keeps one
    /// ``MetricWorkspace`` per worker and one `ReferenceSignal` per clip instead).
    /// - Throws: `MetricError`.
    public func compute(reference: [Float], processed: [Float], sampleRate: Int) throws -> Double {
        let comparison = MetricComparison(reference: ReferenceSignal(samples: reference, sampleRate: sampleRate), processed: processed)
        return try MetricRegistry.descriptor(producing: rawValue)!.compute(comparison, workspace: MetricWorkspace())[self]!
    }
}
