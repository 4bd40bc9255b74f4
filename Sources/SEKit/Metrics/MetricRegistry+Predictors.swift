extension MetricRegistry {
    /// The quality predictors added beside the classic measures: blind WADA-SNR and the
    /// log-spectral distance (native), PLCMOS v2 and personalised DNSMOS (`speechmos`), ViSQOL v3
    /// (`visqol-python`) and Distill-MOS (`distillmos`), each run as its package runs it, with the
    /// model file the package ships (its SHA-256 recorded as `<name>_model_sha256`).
    static let predictors: [MetricDescriptor] = [
        single("wada_snr", unit: "dB", needsReference: false,
               reference: "WADA-SNR blind SNR estimate, Kim & Stern (Interspeech 2008), no reference") { c, _ in
            try WADASNR.estimate(c.processed)
        },
        single("lsd", unit: "dB", higherIsBetter: false,
               reference: "log-spectral distance, Gray & Markel (1976); 2048/512 Hann STFT frames as Kuleshov et al. (2017)") { c, _ in
            try LogSpectralDistance.compute(reference: c.reference.samples, processed: c.processed)
        },
        python("plcmos", package: "speechmos", needsReference: false,
               reference: "PLCMOS v2, Diener et al. (Interspeech 2023), speechmos ONNX model, no reference", QualityPredictors.plcmos),
        python("dnsmos_personalized", outputs: ["dnsmos_personalized_sig", "dnsmos_personalized_bak", "dnsmos_personalized_ovrl"],
               package: "speechmos", needsReference: false,
               reference: "personalised DNSMOS P.835, Reddy et al. (ICASSP 2022), speechmos ONNX model, no reference",
               QualityPredictors.personalizedDNSMOS),
        python("visqol_speech", package: "visqol",
               reference: "ViSQOL v3 speech mode MOS-LQO, Chinen et al. (QoMEX 2020), visqol-python lattice model") { c, w in
            try QualityPredictors.visqol(c, mode: "speech", workspace: w)
        },
        python("visqol_audio", rate: QualityPredictors.audioRate, package: "visqol",
               reference: "ViSQOL v3 audio mode MOS-LQO, Chinen et al. (QoMEX 2020), visqol-python SVR model") { c, w in
            try QualityPredictors.visqol(c, mode: "audio", workspace: w)
        },
        python("distillmos", package: "distillmos", needsReference: false,
               reference: "Distill-MOS, Stahl & Gamper (2025), distillmos PyTorch model, no reference", QualityPredictors.distillMOS),
    ]

    /// A predictor run in the Python worker at one rate (others converted to it), its outputs
    /// dimensionless scores where higher is better, its model file's SHA-256 recorded.
    static func python(_ name: String, outputs: [String]? = nil, rate: Int = QualityPredictors.speechRate, package: String,
                       needsReference: Bool = true, reference: String,
                       _ compute: @escaping @Sendable (MetricComparison, MetricWorkspace) throws -> [Double]) -> MetricDescriptor {
        MetricDescriptor(name: name, outputs: (outputs ?? [name]).map { MetricOutput($0, unit: "") }, sampleRates: .only([rate]),
                         resampledRate: rate, needsReference: needsReference, reference: reference, recordsModelSHA256: true,
                         backend: .python(packages: [package], compute))
    }
}
