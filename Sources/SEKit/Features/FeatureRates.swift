import Foundation

/// Clip rates of a corpus as a features export sees them: a corpus mixed with
/// `--sample-rate native` holds clips at several rates, and one feature file holds one STFT,
/// so an export takes one rate at a time (`FeatureExportOptions/sampleRate`).
enum FeatureRates {
    /// The rates of `records` with their clip counts, ascending: `8000 Hz (3 clips), 16000 Hz (1 clip)`.
    static func describe(_ records: [MixManifestRecord]) -> String {
        let counts = Dictionary(grouping: records, by: \.sampleRate).mapValues(\.count)
        return counts.keys.sorted().map { "\($0) Hz (\(counts[$0]!) clip\(counts[$0]! == 1 ? "" : "s"))" }.joined(separator: ", ")
    }

    /// Why a corpus at several rates cannot be exported as it is, naming its rates and what to do.
    static func mixedRatesReason(_ records: [MixManifestRecord]) -> String {
        "clips have different sample rates: \(describe(records)); one feature file holds one rate: "
            + "export each with --sample-rate R (one file per rate)"
    }

    /// The records at `rate` (all of them when nil).
    /// - Throws: ``FeatureFileError/nothingToExport(corpus:reason:)`` when no clip is at `rate`, naming the rates there are.
    static func select(_ records: [MixManifestRecord], rate: Int?, corpus: URL) throws -> [MixManifestRecord] {
        guard let rate else { return records }
        let selected = records.filter { $0.sampleRate == rate }
        guard !selected.isEmpty else {
            let reason = "no clip is at \(rate) Hz (--sample-rate); the clips are at \(describe(records))"
            throw FeatureFileError.nothingToExport(corpus: corpus.path, reason: reason)
        }
        return selected
    }
}
