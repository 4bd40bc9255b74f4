/// The objective metrics SEKit computes, by their command-line names.
public enum Metric: String, Sendable, CaseIterable, Codable, Hashable {
    /// Plain SNR, dB (``SignalRatios/snr(reference:processed:)``).
    case snr
    /// Segmental SNR, dB, as Loizou's comp_snr.m (``SegmentalSNR``).
    case segsnr
    /// Scale-invariant SDR, dB, no mean removal (``SignalRatios/siSDR(reference:processed:)``).
    case sisdr
    /// Scale-invariant SNR, dB, zero-mean (``SignalRatios/siSNR(reference:processed:)``).
    case sisnr
    /// STOI, 0...1, as pystoi 0.4.1 (``STOI``).
    case stoi
    /// Extended STOI, as pystoi 0.4.1 with `extended=True`.
    case estoi
    /// Frequency-weighted segmental SNR, dB, as Loizou's comp_fwseg.m (``FrequencyWeightedSegmentalSNR``).
    case fwsegsnr
    /// Log-likelihood ratio, as Loizou's comp_llr.m (``LPCMeasures/llr(reference:processed:sampleRate:)``). Lower is better.
    case llr
    /// Weighted spectral slope, as Loizou's comp_wss.m (``WeightedSpectralSlope``). Lower is better.
    case wss
    /// Cepstral distance, dB, as Loizou's comp_cep.m (``LPCMeasures/cepstralDistance(reference:processed:sampleRate:)``). Lower is better.
    case cd

    /// Whether a larger value is better (false for the distortion measures llr, wss and cd).
    public var higherIsBetter: Bool {
        switch self {
        case .llr, .wss, .cd: false
        default: true
        }
    }

    /// Computes the metric of `processed` against `reference` at `sampleRate` Hz.
    /// - Throws: ``MetricError``.
    public func compute(reference: [Double], processed: [Double], sampleRate: Int) throws -> Double {
        switch self {
        case .snr: try SignalRatios.snr(reference: reference, processed: processed)
        case .segsnr: try SegmentalSNR.compute(reference: reference, processed: processed, sampleRate: sampleRate)
        case .sisdr: try SignalRatios.siSDR(reference: reference, processed: processed)
        case .sisnr: try SignalRatios.siSNR(reference: reference, processed: processed)
        case .stoi: try STOI.compute(reference: reference, processed: processed, sampleRate: sampleRate)
        case .estoi: try STOI.compute(reference: reference, processed: processed, sampleRate: sampleRate, extended: true)
        case .fwsegsnr: try FrequencyWeightedSegmentalSNR.compute(reference: reference, processed: processed, sampleRate: sampleRate)
        case .llr: try LPCMeasures.llr(reference: reference, processed: processed, sampleRate: sampleRate)
        case .wss: try WeightedSpectralSlope.compute(reference: reference, processed: processed, sampleRate: sampleRate)
        case .cd: try LPCMeasures.cepstralDistance(reference: reference, processed: processed, sampleRate: sampleRate)
        }
    }
}
