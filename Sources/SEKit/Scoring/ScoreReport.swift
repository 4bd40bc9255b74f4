import Foundation

/// Renders scores as a table, JSON or per-clip CSV. Field names are a public contract
/// (README "sekit score").
public enum ScoreReport {
    /// The JSON document: `{"checkpoint", "clips": [...], "summary": [...], "failed": N}`; when
    /// some metric values could not be computed, `"failed_values": N` and per clip
    /// `"metric_errors"` / `"noisy_metric_errors"` (metric → reason).
    public static func json(checkpoint: String, clips: [ClipScores], summary: [ScoreAggregate], metrics: [Metric]) throws -> Data {
        struct Clip: Encodable {
            var clip_id: String
            var split: String?
            var snr_db: Double?
            var reference: String?
            var enhanced: String?
            var noisy: String?
            var metrics: [String: Double]
            var noisy_metrics: [String: Double]
            var improvement: [String: Double]
            var error: String?
            // Present only when a value could not be computed (older documents stay as they were).
            var metric_errors: [String: String]?
            var noisy_metric_errors: [String: String]?
            // Present only when `--full-scale clip|scale` changed a signal of the clip.
            var full_scale: String?
        }
        struct Document: Encodable {
            var checkpoint: String
            var metrics: [String]
            var failed: Int
            var failed_values: Int?
            var clips: [Clip]
            var summary: [ScoreAggregate]
        }
        func named<V>(_ values: [Metric: V]) -> [String: V] {
            Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) })
        }
        let failedValues = clips.reduce(0) { $0 + $1.failedValues }
        let document = Document(
            checkpoint: checkpoint, metrics: metrics.map(\.rawValue), failed: clips.filter { $0.error != nil }.count,
            failed_values: failedValues > 0 ? failedValues : nil,
            clips: clips.map { c in
                Clip(clip_id: c.pair.clipID, split: c.pair.split, snr_db: c.pair.snrDB, reference: c.pair.reference?.path,
                     enhanced: c.pair.enhanced?.path, noisy: c.pair.noisy?.path, metrics: named(c.enhanced),
                     noisy_metrics: named(c.noisy), improvement: named(c.improvement), error: c.error,
                     metric_errors: c.metricErrors.isEmpty ? nil : named(c.metricErrors),
                     noisy_metric_errors: c.noisyMetricErrors.isEmpty ? nil : named(c.noisyMetricErrors),
                     full_scale: c.fullScale)
            },
            summary: summary)
        return try ReportJSON.data(document)
    }

    /// Per-clip CSV: `clip_id,split,snr_db,<metric>,<metric>_noisy,<metric>_improvement,...,error`;
    /// `error` holds the clip's error, or the values that could not be computed
    /// (`sisdr: reason; noisy estoi: reason`), whose cells are empty. A last column `full_scale` when
    /// `--full-scale clip|scale` changed some clip's signal (what was done to it).
    public static func csv(clips: [ClipScores], metrics: [Metric]) -> String {
        var header = ["clip_id", "split", "snr_db"]
        for m in metrics { header += [m.rawValue, m.rawValue + "_noisy", m.rawValue + "_improvement"] }
        header.append("error")
        let fullScale = clips.contains { $0.fullScale != nil }
        if fullScale { header.append("full_scale") }
        var lines = [header.joined(separator: ",")]
        func cell(_ v: Double?) -> String { v.map { String($0) } ?? "" }
        for c in clips {
            var row = [CSVField.escape(c.pair.clipID), CSVField.escape(c.pair.split ?? ""), cell(c.pair.snrDB)]
            let improvement = c.improvement
            for m in metrics { row += [cell(c.enhanced[m]), cell(c.noisy[m]), cell(improvement[m])] }
            row.append(CSVField.escape(c.error ?? c.valueErrorSummary))
            if fullScale { row.append(CSVField.escape(c.fullScale ?? "")) }
            lines.append(row.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes ``csv(clips:metrics:)`` to `url` atomically (temporary name, then rename).
    public static func writeCSV(clips: [ClipScores], metrics: [Metric], to url: URL) throws {
        try AtomicFile.write(Data(csv(clips: clips, metrics: metrics).utf8), to: url)
    }

    /// The summary table: one row per metric (enhanced mean with its 95% CI, noisy mean,
    /// improvement), then per-SNR and per-split rows.
    public static func table(checkpoint: String, clips: [ClipScores], summary: [ScoreAggregate], metrics: [Metric]) -> String {
        let failed = clips.filter { $0.error != nil }
        var out = "checkpoint: \(checkpoint)   clips: \(clips.count)   scored: \(clips.count - failed.count)   failed: \(failed.count)"
        let valueFailures = clips.filter { $0.failedValues > 0 }
        if !valueFailures.isEmpty { out += "   values not computed: \(valueFailures.reduce(0) { $0 + $1.failedValues })" }
        out += "\n"
        let byKey = Dictionary(summary.map { ("\($0.metric)|\($0.subset)", $0) }, uniquingKeysWith: { a, _ in a })
        var subsets: [String] = []
        for a in summary where !subsets.contains(a.subset) { subsets.append(a.subset) }
        // The noisy and improvement columns only when the noisy input was scored too.
        let withNoisy = summary.contains { $0.metric.hasSuffix("_noisy") }
        let header = ["metric", "subset", "n", "mean", "95% CI"] + (withNoisy ? ["noisy", "improvement"] : [])
        var rows: [[String]] = []
        for m in metrics {
            for subset in subsets {
                guard let e = byKey["\(m.rawValue)|\(subset)"] else { continue }
                let noisy = byKey["\(m.rawValue)_noisy|\(subset)"]
                let gain = byKey["\(m.rawValue)_improvement|\(subset)"]
                var row = [m.rawValue, subset, String(e.n), fmt(e.mean), Self.interval(e)]
                if withNoisy {
                    row += [noisy.map { fmt($0.mean) } ?? "-", gain.map { (($0.mean >= 0) ? "+" : "") + fmt($0.mean) } ?? "-"]
                }
                rows.append(row)
            }
        }
        out += TextTable.render(header: header, rows: rows)
        for f in failed.prefix(20) { out += "failed: \(f.pair.clipID): \(f.error!)\n" }
        for f in valueFailures.prefix(20) { out += "not computed: \(f.pair.clipID): \(f.valueErrorSummary)\n" }
        if valueFailures.count > 20 {
            out += "not computed: ... and \(valueFailures.count - 20) more clips (see --per-clip or --format json)\n"
        }
        if failed.count > 20 { out += "failed: ... and \(failed.count - 20) more (see --per-clip or --format json)\n" }
        return out
    }

    /// `[low, high]`, or `undefined (n=1)` for a one-clip mean.
    static func interval(_ aggregate: ScoreAggregate) -> String {
        guard let low = aggregate.ci95Low, let high = aggregate.ci95High else { return "undefined (n=\(aggregate.n))" }
        return "[\(fmt(low)), \(fmt(high))]"
    }

    static func fmt(_ v: Double) -> String {
        guard v.isFinite else { return String(v) }
        return abs(v) >= 100 ? String(format: "%.2f", v) : String(format: "%.4f", v)
    }
}
