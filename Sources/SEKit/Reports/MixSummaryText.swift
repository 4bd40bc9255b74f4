import Foundation

/// Human-readable summary of a mix: where it is, counts per split and per degradation, SNR histogram.
public enum MixSummaryText {
    public static func render(_ result: MixResult) -> String {
        var lines: [String] = []
        let records = result.records
        lines.append("corpus: \(result.layout.root.path)")
        lines.append("manifest: \(result.layout.manifest.path)")
        lines.append(String(format: "clips: %d (%d written now, %d resumed, %d failed), %.2f h of noisy audio",
                            records.count, result.written, result.resumed, result.failures.count, result.audioSeconds / 3600))
        var perSplit: [String: Int] = [:]
        for record in records { perSplit[record.split, default: 0] += 1 }
        lines.append("splits: " + perSplit.keys.sorted().map { "\($0)=\(perSplit[$0]!)" }.joined(separator: " "))
        if records.contains(where: { $0.degradations != nil }) {
            // Clips per degradation name (kinds, the codec family, none), as `score` groups them.
            var perName: [String: Int] = [:]
            for record in records {
                for name in DegradationLabels.names(ofKinds: (record.degradations ?? []).map(\.kind)) { perName[name, default: 0] += 1 }
            }
            lines.append("degradations (clips): " + perName.keys.sorted().map { "\($0)=\(perName[$0]!)" }.joined(separator: " "))
        }
        if !result.skippedSources.isEmpty {
            lines.append("skipped sources: \(result.skippedSources.count) (listed above)")
        }
        if !result.latePeakRIRs.isEmpty {
            let count = result.latePeakRIRs.count
            let rule = result.rirAlignment == .onset ? "first arrival" : "largest sample, as when this mix was begun"
            lines.append("warning: \(count) RIR\(count == 1 ? " has its" : "s have their") largest sample more than "
                + "\(formatNumber(RIRAlignment.latePeakSeconds * 1000)) ms after its first arrival (stems are aligned on the \(rule)): "
                + result.latePeakRIRs.prefix(3).joined(separator: ", ") + (count > 3 ? ", ..." : ""))
        }
        for failure in result.failures.prefix(10) { lines.append("failed clip \(failure.index): \(failure.reason)") }
        if !records.isEmpty {
            let worst = records.map { abs($0.snrDBRealised - $0.snrDBRequested) }.max() ?? 0
            lines.append(String(format: "realised SNR within %.4f dB of requested", worst))
            lines.append("realised SNR histogram (dB):")
            lines.append(histogram(records.map(\.snrDBRealised)))
        }
        return lines.joined(separator: "\n")
    }

    /// A text histogram with bins of `binWidth` dB centred on multiples of it (so a list of
    /// requested SNRs such as -5,0,5 lands one value per bin); bars scaled to 40 characters.
    public static func histogram(_ values: [Double], binWidth: Double = 5) -> String {
        guard !values.isEmpty else { return "" }
        var counts: [Int: Int] = [:]
        for v in values { counts[Int((v / binWidth).rounded()), default: 0] += 1 }
        let peak = counts.values.max() ?? 1
        let keys = counts.keys.sorted()
        return (keys.first!...keys.last!).map { k in
            let c = counts[k] ?? 0
            return String(format: "  %7.1f ± %.1f %6d %@", Double(k) * binWidth, binWidth / 2, c, TextBar.bar(c, peak: peak))
        }.joined(separator: "\n")
    }
}
