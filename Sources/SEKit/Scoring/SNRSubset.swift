import Foundation

/// An input-SNR subset label as ``ScoreSummary/subsets(snrDB:split:degradations:reverberation:snrRule:)`` writes it, read
/// back: one requested SNR (`snr=5`, `snr=-2.5`) or a 5 dB band of continuous draws (`snr=[0,5)`,
/// low end included, high end not).
public struct SNRSubset: Sendable, Equatable {
    /// The SNR, or the band's low end, dB.
    public var lowDB: Double
    /// The band's high end (excluded), dB; nil for one SNR.
    public var highDB: Double?

    /// The subset a label names; nil when it is not an SNR subset.
    public init?(label: String) {
        guard label.hasPrefix("snr=") else { return nil }
        let value = label.dropFirst(4)
        if let snr = Double(value), snr.isFinite { lowDB = snr; highDB = nil; return }
        guard value.hasPrefix("["), value.hasSuffix(")") else { return nil }
        let ends = value.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard ends.count == 2, let low = Double(ends[0]), let high = Double(ends[1]), low.isFinite, high.isFinite, low < high else {
            return nil
        }
        lowDB = low; highDB = high
    }

    /// Whether a clip at `snrDB` belongs to the subset.
    public func contains(_ snrDB: Double) -> Bool {
        guard let highDB else { return snrDB == lowDB }
        return snrDB >= lowDB && snrDB < highDB
    }

    /// `5 dB`, `-2.5 dB`, `[0,5) dB`: a chart's bar label.
    public var chartLabel: String {
        guard let highDB else { return "\(ReportNumber.fixed(lowDB, decimals: lowDB == lowDB.rounded() ? 0 : 1)) dB" }
        return "[\(formatNumber(lowDB)),\(formatNumber(highDB))) dB"
    }

    /// The label among `labels` that `requested` names: itself when present, else, for `snr=X`,
    /// the band of continuous draws holding X (`snr=0` → `snr=[0,5)`); nil when there is none.
    public static func resolve(_ requested: String, among labels: [String]) -> String? {
        if labels.contains(requested) { return requested }
        guard let wanted = SNRSubset(label: requested), wanted.highDB == nil else { return nil }
        return labels.first { label in SNRSubset(label: label).map { $0.highDB != nil && $0.contains(wanted.lowDB) } ?? false }
    }
}

extension SNRSubsetRule {
    /// The subset label of a clip at `snrDB`: `snr=5`, `snr=-2.5` (rounded to 0.01 dB), `snr=[0,5)`.
    public func label(_ snrDB: Double) -> String {
        switch self {
        case .perValue:
            return "snr=" + formatNumber((snrDB * 100).rounded() / 100)
        case .bands5dB:
            let low = (snrDB / 5).rounded(.down) * 5
            return "snr=[" + formatNumber(low) + "," + formatNumber(low + 5) + ")"
        }
    }
}
