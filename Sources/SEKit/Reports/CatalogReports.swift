import Foundation

// Text and tables of the catalogue's reports (`sekit catalog ...`, `sekit runs show`): `text` is
// what `--format table` prints, `table` the main table `--format csv` prints.

extension Catalog.ImportReport {
    /// One line: the run and its counts (failures are listed on stderr by the CLI).
    public var text: String {
        "import run \(runID): \(added.count) added, \(updated.count) updated, \(unchanged) unchanged, "
            + "\(failures.count) failed, \(skippedNonAudio) non-audio skipped\n"
    }

    /// One row per file added, updated or failed: `outcome, source` (the source id, or for a failure
    /// the path), `reason` (failures only).
    public var table: ReportTable {
        ReportTable(columns: ["outcome", "source", "reason"],
                    rows: added.map { [.text("added"), .text($0), .null] } + updated.map { [.text("updated"), .text($0), .null] }
                        + failures.map { [.text("failed"), .text($0.path), .text($0.reason)] })
    }
}

extension Catalog.Stats {
    /// Sources per corpus and kind: `corpus, kind, files, hours, speakers`.
    public var sourceTable: ReportTable {
        ReportTable(columns: ["corpus", "kind", "files", "hours", "speakers"], rows: sources.map {
            [.text($0.corpus), .text($0.kind), .integer(Int64($0.files)), .text(String(format: "%.3f", $0.hours)),
             .integer(Int64($0.speakers))]
        })
    }

    /// The four tables (sources, clips per split, runs per kind and status, SNR histogram), clips per
    /// degradation kind when some clips are degraded, and the number of clip scores.
    public var text: String {
        var text = ""
        func add(_ title: String, _ table: ReportTable) { text += "\(title)\n" + table.rendered(.table) + "\n" }
        add("sources", sourceTable)
        add("clips", ReportTable(columns: ["split", "clips", "hours"], rows: clips.map {
            [.text($0.split), .integer(Int64($0.clips)), .text(String(format: "%.3f", $0.hours))]
        }))
        add("runs", ReportTable(columns: ["kind", "status", "runs"], rows: runs.map {
            [.text($0.kind), .text($0.status), .integer(Int64($0.runs))]
        }))
        let peak = snrHistogram.map(\.clips).max() ?? 1
        add("snr (dB)", ReportTable(columns: ["from", "to", "clips", ""], rows: snrHistogram.map {
            [.real($0.lowerDB), .real($0.lowerDB + snrBinWidthDB), .integer(Int64($0.clips)), .text(TextBar.bar($0.clips, peak: peak))]
        }))
        if !degradations.isEmpty {
            add("degradations", ReportTable(columns: ["kind", "clips"], rows: degradations.map { [.text($0.kind),
                                                                                                  .integer(Int64($0.clips))] }))
        }
        return text + "clip scores: \(clipScores)\n"
    }
}

extension Catalog.MergeReport {
    /// Per input, the rows added by table, then the totals.
    public func text(output: URL) -> String {
        var text = ""
        for (input, counts) in inserted.sorted(by: { $0.key < $1.key }) {
            let parts = counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            text += "\(input): \(parts.isEmpty ? "nothing new" : parts.joined(separator: ", "))\n"
        }
        for run in folded {
            text += "folded \(run.shards) shard runs of \(run.kind) '\(run.name)' into run \(run.id)\(run.new ? "" : " (already folded)")"
                + (run.supersededAttempts.isEmpty ? "" : ", with \(run.supersededAttempts.count) failed attempts of its shards") + "\n"
        }
        return text + "merged into \(output.path): \(totalInserted) rows added, \(runsCompleted) runs completed"
            + (folded.isEmpty ? "" : ", \(folded.filter(\.new).count) runs folded from shards") + "\n"
    }

    /// Rows added per input and table: `input, table, rows`.
    public var table: ReportTable {
        ReportTable(columns: ["input", "table", "rows"], rows: inserted.sorted { $0.key < $1.key }.flatMap { input, counts in
            counts.sorted { $0.key < $1.key }.map { [.text(input), .text($0.key), .integer(Int64($0.value))] }
        })
    }
}

extension Catalog.CheckReport {
    /// One line per problem, then whether the catalogue is consistent; `dryRun` says whether
    /// abandoned runs were marked failed or only found.
    public func text(dryRun: Bool) -> String {
        var lines: [String] = []
        lines += integrityProblems.map { "integrity: \($0)" }
        lines += missingFiles.map { "missing: \($0.table) \($0.id): \($0.path)" }
        lines += changedFiles.map { "changed: \($0.table) \($0.id): \($0.path)" }
        lines += abandonedRuns.map { "abandoned run \($0): \(dryRun ? "would be marked failed" : "marked failed")" }
        lines += runningElsewhere.map { "running on another host (not verified): \($0)" }
        lines += splitLeaks.map { leak in
            "split leak: source \(leak.sourceID) is used in \(leak.splits.joined(separator: ", "))"
                + (leak.corpus.map { " of \($0)" } ?? "")
        }
        lines += (incompleteFolds ?? []).map { "incomplete fold: run \($0.runID): \($0.detail)" }
        lines.append(isClean ? "catalogue is consistent (\(filesHashed) files re-hashed)" : "catalogue needs attention")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One row per problem: `problem` (integrity, missing, changed, abandoned-run,
    /// running-elsewhere, split-leak, incomplete-fold), `table`, `id`, `detail` (path, message or splits).
    public var table: ReportTable {
        func row(_ problem: String, _ table: String?, _ id: String?, _ detail: String?) -> [TableCell] {
            [.text(problem), table.map(TableCell.text) ?? .null, id.map(TableCell.text) ?? .null, detail.map(TableCell.text) ?? .null]
        }
        var rows = integrityProblems.map { row("integrity", nil, nil, $0) }
        rows += missingFiles.map { row("missing", $0.table, $0.id, $0.path) }
        rows += changedFiles.map { row("changed", $0.table, $0.id, $0.path) }
        rows += abandonedRuns.map { row("abandoned-run", "runs", $0.rawValue, nil) }
        rows += runningElsewhere.map { row("running-elsewhere", "runs", $0.rawValue, nil) }
        rows += splitLeaks.map { row("split-leak", "sources", $0.sourceID, $0.splits.joined(separator: ";")) }
        rows += (incompleteFolds ?? []).map { row("incomplete-fold", "runs", $0.runID.rawValue, $0.detail) }
        return ReportTable(columns: ["problem", "table", "id", "detail"], rows: rows)
    }
}

extension Catalog.RunDetails {
    /// Provenance, counts, children, params, artifacts and metrics, one item a line.
    public var text: String {
        var lines = [
            "run \(run.id)", "kind: \(run.kind.rawValue)", "name: \(run.name)", "status: \(run.status.rawValue)",
            "started: \(run.startedAt)", "finished: \(run.finishedAt.map { "\($0)" } ?? "-")",
            "tool version: \(run.toolVersion)", "host: \(run.host) (pid \(run.pid))",
            "folder: \(run.workingDirectory)", "command: \(run.commandLine)",
        ]
        if let parent = run.parentID { lines.append("parent: \(parent)") }
        if let error = run.error { lines.append("error: \(error)") }
        // A score run makes no clips but scores some: say how many (it once read "clips: 0" for 40 scored clips).
        if let scored = scoredClipCount {
            lines.append("clips scored: \(scored) (\(clipScoreCount) clip scores), clips made: \(clipCount), sources: \(sourceCount)")
        } else {
            lines.append("clips: \(clipCount), clip scores: \(clipScoreCount), sources: \(sourceCount)")
        }
        if !children.isEmpty { lines.append("children: \(children.map(\.rawValue).joined(separator: ", "))") }
        if !params.isEmpty {
            lines.append("params:")
            lines += params.map { "  \($0.key) = \($0.valueText)" }
        }
        if !artifacts.isEmpty {
            lines.append("artifacts:")
            lines += artifacts.map { "  \($0.kind) \($0.path)\($0.bytes.map { " (\($0) bytes)" } ?? "")" }
        }
        if !metrics.isEmpty {
            lines.append("metrics:")
            lines += metrics.map { m in
                let ci = m.ci95.map { String(format: " [%.4g, %.4g]", $0.low, $0.high) } ?? (m.n < 2 ? " [95% CI undefined]" : "")
                return "  \(m.metric)\(m.subset.isEmpty ? "" : " (\(m.subset))"): mean \(String(format: "%.4g", m.mean))\(ci) n=\(m.n)"
            }
        }
        if let tags {
            lines.append("tags:")
            lines += tags.map { "  \($0.key) = \($0.value)" }
        }
        if let series {
            lines.append("per-step metrics:")
            lines += series.map(Self.seriesLine)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The run as `field, value` rows named as in the filter language: the run's fields, `clips`,
    /// `clip_scores`, `sources`, `params.KEY`, and `metrics.NAME.STAT` (overall) or
    /// `metrics.NAME.STAT[SUBSET]` with STAT one of mean, std, ci95_low, ci95_high, n.
    public var table: ReportTable {
        var rows: [[TableCell]] = []
        func add(_ field: String, _ value: TableCell) { rows.append([.text(field), value]) }
        func add(_ field: String, _ value: String?) { add(field, value.map(TableCell.text) ?? .null) }
        add("id", run.id.rawValue); add("kind", run.kind.rawValue); add("name", run.name); add("status", run.status.rawValue)
        add("started_at", ISO8601DateFormatter().string(from: run.startedAt))
        add("finished_at", run.finishedAt.map { ISO8601DateFormatter().string(from: $0) })
        add("tool_version", run.toolVersion); add("command_line", run.commandLine)
        add("working_directory", run.workingDirectory); add("host", run.host); add("pid", .integer(Int64(run.pid)))
        add("parent", run.parentID?.rawValue); add("error", run.error)
        add("clips", .integer(Int64(clipCount))); add("clip_scores", .integer(Int64(clipScoreCount)))
        add("scored_clips", .integer(Int64(scoredClipCount ?? 0)))
        add("sources", .integer(Int64(sourceCount)))
        for param in params { add("params.\(param.key)", param.valueText) }
        for m in metrics {
            let subset = m.subset.isEmpty ? "" : "[\(m.subset)]"
            add("metrics.\(m.metric).mean\(subset)", .real(m.mean))
            add("metrics.\(m.metric).std\(subset)", m.std.map(TableCell.real) ?? .null)
            add("metrics.\(m.metric).ci95_low\(subset)", m.ci95.map { .real($0.low) } ?? .null)
            add("metrics.\(m.metric).ci95_high\(subset)", m.ci95.map { .real($0.high) } ?? .null)
            add("metrics.\(m.metric).n\(subset)", .integer(Int64(m.n)))
        }
        for tag in tags ?? [] { add("tags.\(tag.key)", tag.value) }
        for one in series ?? [] {
            add("metrics.\(one.key).steps", .integer(Int64(one.steps.count)))
            for (stat, value) in [("first", one.first), ("last", one.last), ("min", one.minimum?.value), ("max", one.maximum?.value)] {
                add("metrics.\(one.key).\(stat)", value.map(TableCell.real) ?? .null)
            }
        }
        return ReportTable(columns: ["field", "value"], rows: rows)
    }

    /// `loss: 40 steps (0…39), first 0.9, last 0.12, min 0.11 at step 37, max 0.9 at step 0`.
    static func seriesLine(_ series: StepSeries) -> String {
        func number(_ value: Double?) -> String { value.map { String(format: "%.6g", $0) } ?? "-" }
        let range = series.steps.count == 1 ? "step \(series.steps[0])"
            : "\(series.steps.count) steps (\(series.steps[0])…\(series.steps.last!))"
        var line = "  \(series.key): \(range), first \(number(series.first)), last \(number(series.last))"
        if let low = series.minimum, let high = series.maximum {
            line += ", min \(number(low.value)) at step \(low.step), max \(number(high.value)) at step \(high.step)"
        }
        return line
    }
}
