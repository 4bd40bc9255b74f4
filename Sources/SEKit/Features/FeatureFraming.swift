import Foundation

/// STFT framing presets (`sekit features --framing`), given in milliseconds and turned into samples
/// at the corpus's sample rate.
public enum FeatureFraming: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// The DNS Challenge's framing: a 20 ms window and a 10 ms hop (320 and 160 samples at 16 kHz),
    /// an FFT the window's length (the window's kind and centring stay as asked: Hann and centred by
    /// default).
    case dns

    /// Window length, ms.
    public var windowMilliseconds: Double {
        switch self { case .dns: 20 }
    }

    /// Hop, ms.
    public var hopMilliseconds: Double {
        switch self { case .dns: 10 }
    }

    /// The STFT settings at `sampleRate` (window and hop rounded to whole samples), with `base`'s
    /// window kind and centring.
    public func configuration(sampleRate: Int, base: STFTConfiguration) -> STFTConfiguration {
        let window = max(2, Int((windowMilliseconds / 1000 * Double(sampleRate)).rounded()))
        let hop = max(1, Int((hopMilliseconds / 1000 * Double(sampleRate)).rounded()))
        return STFTConfiguration(fftSize: window, winLength: window, hopLength: hop, window: base.window, center: base.center)
    }

    /// The settings for the corpus at `corpus` (the sample rate its manifest records), with `base`'s
    /// window kind and centring.
    /// - Throws: ``FeatureFileError`` for a corpus without clips or with clips at several rates.
    /// - Parameter sampleRate: the rate the export selects (`--sample-rate`); nil: the corpus's one rate.
    public func configuration(corpus: URL, base: STFTConfiguration, sampleRate: Int? = nil) throws -> STFTConfiguration {
        if let sampleRate { return configuration(sampleRate: sampleRate, base: base) }
        let records: [MixManifestRecord]
        do {
            records = try MixManifestRecord.corpusRecords(corpus, allowIncomplete: true).records
        } catch {
            throw FeatureFileError.nothingToExport(corpus: corpus.path, reason: "\(error)")
        }
        let rates = Set(records.map(\.sampleRate)).sorted()
        guard rates.count == 1 else {
            throw FeatureFileError.invalidParameter(
                name: "framing", value: rawValue,
                reason: rates.isEmpty ? "the corpus has no clips" : "a preset gives one STFT and "
                    + FeatureRates.mixedRatesReason(records))
        }
        return configuration(sampleRate: rates[0], base: base)
    }

    public var description: String { rawValue }
}
