import Foundation

/// How `sekit report` includes the audio of the clips it shows.
public enum ReportAudio: String, Sendable, CaseIterable, Codable {
    /// The WAV files inside the page, base64 (the page stands alone; larger).
    case embed
    /// Players pointing at the files, by their path relative to the page.
    case link
    /// No players.
    case none
}

/// What `sekit report` is asked for.
public struct HTMLReportRequest: Sendable {
    /// Score runs: id, id prefix or name.
    public var runs: [String]
    public var output: URL
    /// How many of the worst clips to show with spectrograms and players.
    public var worst = 5
    /// The metric whose improvement over the noisy input ranks the clips (default `stoi`, or the
    /// run's first metric when it did not score STOI).
    public var worstMetric: String?
    public var audio: ReportAudio = .embed

    public init(runs: [String], output: URL) { self.runs = runs; self.output = output }
}

/// What was written.
public struct HTMLReportOutcome: Sendable {
    public var output: URL
    public var runs: [RunRecord]
    /// Clips shown with figures (and players).
    public var clipsShown: Int
    /// Figures in the page (charts and spectrograms).
    public var figures: Int
    public var bytes: Int
}

/// `sekit report` as one library entry point: one self-contained HTML page (inline CSS, SVG and
/// PNG, a few lines of inline JavaScript, no network) about one score run or several.
///
/// One run: its provenance (command, lineage, parameters), the metric summary with 95% CIs,
/// charts of the improvement over the noisy input per SNR, the per-clip table (sortable; unsorted
/// without JavaScript), and the `worst` clips by the improvement of `worstMetric`, each with its
/// noisy, enhanced and clean spectrograms and audio players. Several runs (checkpoints scored on
/// one corpus): the corpus's leaderboard and the `runs diff` of the best two with significance,
/// then the best run's own section.
public enum HTMLReport {
    /// Writes the page (atomically, claiming the output) and records a `report` run in
    /// `context`'s catalogue (parent: the run reported on, or the best of several; params: the
    /// runs, options and figures; the page as its artifact).
    /// - Throws: `CatalogError` for unknown or non-score runs; ``ReportError`` for bad options;
    ///   file errors.
    public static func write(_ request: HTMLReportRequest, catalog: Catalog, context: RunContext? = nil) throws -> HTMLReportOutcome {
        guard !request.runs.isEmpty else { throw ReportError.invalidOption(name: "runs", value: "", reason: "name at least one score run") }
        guard (0...100).contains(request.worst) else {
            throw ReportError.invalidOption(name: "worst", value: "\(request.worst)", reason: "must be from 0 to 100 clips")
        }
        guard request.output.pathExtension.lowercased() == "html" || request.output.pathExtension.lowercased() == "htm" else {
            throw ReportError.invalidOption(name: "out", value: request.output.path, reason: "must end in .html")
        }
        var runs: [RunRecord] = []
        for reference in request.runs {
            let run = try catalog.resolveRun(reference, kind: .score)
            if !runs.contains(where: { $0.id == run.id }) { runs.append(run) }
        }
        var page = ReportPage(request: request, catalog: catalog, folder: request.output.deletingLastPathComponent())
        let title: String
        if runs.count == 1 {
            title = "Scores of \(runs[0].name.isEmpty ? runs[0].id.rawValue : runs[0].name)"
            page.body += "<h1>\(HTML.escape(title))</h1>\n"
            page.body += page.generatedLine()
            try page.scoreRunSection(runs[0], headingLevel: 2)
            try page.listenersSection(runs, headingLevel: 2)
        } else {
            let best = try page.comparisonSection(runs)
            page.reportedRun = best.id
            title = "Comparison of \(runs.count) score runs"
            page.body = "<h1>\(HTML.escape(title))</h1>\n" + page.generatedLine() + page.body
            page.body += "<h2>The best run: \(HTML.escape(best.name))</h2>\n"
            try page.scoreRunSection(best, headingLevel: 3)
            try page.listenersSection(runs, headingLevel: 2)
        }
        let html = HTML.page(title: title, body: page.body)
        let lock = try OutputLock(output: request.output.path, lockFile: OutputLock.lockFile(besideFile: request.output))
        defer { withExtendedLifetime(lock) {} }
        let params = ["runs": runs.map(\.id.rawValue).joined(separator: ","), "out": request.output.standardizedFileURL.path,
                      "worst": "\(request.worst)", "worst_metric": request.worstMetric ?? "", "audio": request.audio.rawValue]
        let run = try RecordedRun.begin(context ?? RunContext(catalog: nil), kind: .report, name: title, params: params,
                                        parent: page.reportedRun ?? runs[0].id)
        return try run.failing {
            let data = Data(html.utf8)
            try AtomicFile.write(data, to: request.output)
            try run.recordArtifact(fileAt: request.output, kind: "report")
            try run.finish(params: ["figures": "\(page.figures)", "clips_shown": "\(page.clipsShown)", "bytes": "\(data.count)"])
            return HTMLReportOutcome(output: request.output, runs: runs, clipsShown: page.clipsShown, figures: page.figures,
                                     bytes: data.count)
        }
    }
}
