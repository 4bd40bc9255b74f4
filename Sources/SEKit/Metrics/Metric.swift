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

    /// Whether a larger value is better (all current metrics).
    public var higherIsBetter: Bool { true }

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
        }
    }
}
