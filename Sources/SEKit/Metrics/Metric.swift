/// The name of one value a metric reports (`stoi`, `segsnr`; later `csig`, `cbak`, `covl` from one
/// composite computation): the name on the command line, in score JSON and CSV, and in the
/// catalogue's `clip_scores.metric` and `run_metrics.metric` columns.
///
/// Which computation produces it, its unit, direction and accepted rates are in its
/// ``MetricDescriptor`` (``MetricRegistry``). A value is valid only if the registry knows it.
public struct Metric: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// The output named `rawValue`, or nil when no registered metric produces it.
    public init?(rawValue: String) {
        guard MetricRegistry.descriptor(producing: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// An output name as declared by a descriptor (not checked against the registry).
    init(declared name: String) { rawValue = name }

    public init(from decoder: Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let metric = Metric(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown metric '\(name)'"))
        }
        self = metric
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// Every output of every registered metric, in registry order.
    public static var allCases: [Metric] { MetricRegistry.all.flatMap { $0.outputs.map(\.metric) } }

    /// What this output is (unit, direction).
    public var output: MetricOutput { MetricRegistry.descriptor(producing: rawValue)!.outputs.first { $0.metric == self }! }

    /// Whether a larger value is better (false for the distortion measures llr, wss and cd).
    public var higherIsBetter: Bool { output.higherIsBetter }

    public static let snr = Metric(declared: "snr")
    public static let segsnr = Metric(declared: "segsnr")
    public static let sisdr = Metric(declared: "sisdr")
    public static let sisnr = Metric(declared: "sisnr")
    public static let stoi = Metric(declared: "stoi")
    public static let estoi = Metric(declared: "estoi")
    public static let fwsegsnr = Metric(declared: "fwsegsnr")
    public static let llr = Metric(declared: "llr")
    public static let wss = Metric(declared: "wss")
    public static let cd = Metric(declared: "cd")
    public static let sdr = Metric(declared: "sdr")
    public static let sir = Metric(declared: "sir")
    public static let sar = Metric(declared: "sar")
    public static let srmr = Metric(declared: "srmr")
    public static let speakerSimilarity = Metric(declared: "speaker_similarity")
    public static let werVersusClean = Metric(declared: "wer_vs_clean")
    public static let cerVersusClean = Metric(declared: "cer_vs_clean")
    public static let wer = Metric(declared: "wer")
    public static let cer = Metric(declared: "cer")
    public static let pesqWB = Metric(declared: "pesq_wb")
    public static let pesqNB = Metric(declared: "pesq_nb")
    public static let csig = Metric(declared: "csig")
    public static let cbak = Metric(declared: "cbak")
    public static let covl = Metric(declared: "covl")
    public static let dnsmosSIG = Metric(declared: "dnsmos_sig")
    public static let dnsmosBAK = Metric(declared: "dnsmos_bak")
    public static let dnsmosOVRL = Metric(declared: "dnsmos_ovrl")
    public static let dnsmosP808 = Metric(declared: "dnsmos_p808")
    public static let wadaSNR = Metric(declared: "wada_snr")
    public static let lsd = Metric(declared: "lsd")
    public static let plcmos = Metric(declared: "plcmos")
    public static let dnsmosPersonalizedSIG = Metric(declared: "dnsmos_personalized_sig")
    public static let dnsmosPersonalizedBAK = Metric(declared: "dnsmos_personalized_bak")
    public static let dnsmosPersonalizedOVRL = Metric(declared: "dnsmos_personalized_ovrl")
    public static let visqolSpeech = Metric(declared: "visqol_speech")
    public static let visqolAudio = Metric(declared: "visqol_audio")
    public static let distillMOS = Metric(declared: "distillmos")
}
