import Foundation

/// Human-readable summary of a mix: where it is, counts per split, SNR histogram.
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
        if !result.skippedSources.isEmpty {
            lines.append("skipped sources: \(result.skippedSources.count) (listed above)")
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

    /// A text histogram in 5 dB bins (one row a bin, bars scaled to 40 characters).
    public static func histogram(_ values: [Double], binWidth: Double = 5) -> String {
        guard let low = values.min(), let high = values.max() else { return "" }
        let first = (low / binWidth).rounded(.down) * binWidth
        let binCount = max(1, Int(((high - first) / binWidth).rounded(.down)) + 1)
        var counts = [Int](repeating: 0, count: binCount)
        for v in values { counts[min(binCount - 1, Int((v - first) / binWidth))] += 1 }
        let peak = counts.max() ?? 1
        return counts.enumerated().map { i, c in
            let from = first + Double(i) * binWidth
            let bar = String(repeating: "#", count: peak > 0 ? Int((Double(c) / Double(peak) * 40).rounded(.up)) : 0)
            return String(format: "  [%6.1f, %6.1f) %6d %@", from, from + binWidth, c, bar)
        }.joined(separator: "\n")
    }
}
