import Foundation

extension ReportPage {
    /// The `worst` clips by the improvement of the chosen metric (lowest first; for a metric
    /// where lower is better, highest first), each with its spectrograms and players.
    mutating func worstClips(_ run: RunRecord, scores: RunScores, params: [String: String], headingLevel h: Int) throws {
        guard request.worst > 0, !scores.clipIDs.isEmpty else { return }
        let metric = request.worstMetric ?? (scores.metrics.contains("stoi") ? "stoi" : scores.metrics.first!)
        guard let values = scores.values[metric] else {
            throw ReportError.invalidOption(name: "worst-metric", value: metric,
                                          reason: "run \(run.id.rawValue) scored \(scores.metrics.joined(separator: ", "))")
        }
        let higherIsBetter = Metric(rawValue: metric)?.higherIsBetter ?? true
        let noisy = scores.noisyValues[metric]
        let hasNoisy = noisy?.contains { $0 != nil } ?? false
        // How good each clip came out: the improvement (or the value, without the noisy input's).
        let goodness: [Double?] = values.indices.map { i in
            guard let value = values[i] else { return nil }
            let measure = hasNoisy ? noisy![i].map { value - $0 } : value
            return measure.map { higherIsBetter ? $0 : -$0 }
        }
        let worst = goodness.indices.filter { goodness[$0]?.isFinite == true }
            .sorted { goodness[$0]! < goodness[$1]! }.prefix(request.worst)
        let what = hasNoisy ? "\(metric) improvement over the noisy input" : metric
        body += heading(h, "The \(worst.count) worst clips by \(what)")
        let pairs = Self.pairs(params)
        for i in worst {
            let id = scores.clipIDs[i]
            let short = Self.shortClipID(id)
            let value = values[i].map { ReportNumber.fixed($0, decimals: 3) } ?? "–"
            let base = noisy?[i].flatMap { $0 }.map { ", noisy \(ReportNumber.fixed($0, decimals: 3))" } ?? ""
            let snr = scores.snrDB[i].map { ", \(ReportNumber.fixed($0, decimals: 1)) dB input SNR" } ?? ""
            body += heading(h + 1, short)
            body += "<p>\(HTML.escape(metric)) \(value)\(base)\(snr).</p>\n"
            guard let pair = pairs[id] ?? pairs[short] else {
                body += "<p>The clip's files are not found from the run's parameters.</p>\n"
                continue
            }
            var files: [(String, URL)] = []
            if let url = pair.noisy ?? (pair.enhanced != nil && params["enhanced"] == nil ? pair.enhanced : nil) { files.append(("noisy",
                                                                                                                                 url)) }
            if params["enhanced"] != nil, let url = pair.enhanced { files.append(("enhanced", url)) }
            if let url = pair.reference { files.append(("clean", url)) }
            let missing = files.filter { !FileManager.default.fileExists(atPath: $0.1.path) }
            files = files.filter { FileManager.default.fileExists(atPath: $0.1.path) }
            if !missing.isEmpty {
                // Said, not silently left out: a panel and a player fewer than the reader expects.
                body += "<p class=\"note\">Not shown, no longer there: " + missing.map { label, url in
                    "\(HTML.escape(label)) (<code>\(HTML.escape(url.path))</code>)"
                }.joined(separator: ", ") + ".</p>\n"
            }
            guard !files.isEmpty else { continue }
            var plot = PlotJob.Request(files: files.map(\.1), output: URL(fileURLWithPath: "figure.png"))
            plot.labels = files.map(\.0)
            plot.widthPixels = 1000
            do {
                let (png, outcome) = try PlotJob.render(plot)
                let names = HTML.escape(files.map(\.0).joined(separator: ", "))
                let seconds = ReportNumber.fixed(outcome.seconds, decimals: 2)
                body += "<figure><img src=\"data:image/png;base64,\(png.base64EncodedString())\" "
                    + "width=\"\(outcome.widthPixels)\" height=\"\(outcome.heightPixels)\" "
                body += "alt=\"Spectrograms of clip \(HTML.escape(short)): \(names), \(seconds) s\">"
                    + "<figcaption>\(names), top to bottom; dB re full scale.</figcaption></figure>\n"
                figures += 1
            } catch {
                body += "<p>No spectrogram: \(HTML.escape("\(error)"))</p>\n"
            }
            if request.audio != .none {
                body += "<div class=\"audio\">" + files.map { label, url in
                    "<label>\(HTML.escape(label))<audio controls preload=\"none\" src=\"\(HTML.escape(audioSource(url)))\"></audio></label>"
                }.joined() + "</div>\n"
            }
            clipsShown += 1
        }
    }

    /// What an `<audio>` element plays: the file itself as a data URL, or its path relative to the page.
    func audioSource(_ url: URL) -> String {
        switch request.audio {
        case .embed:
            let data = (try? Data(contentsOf: url)) ?? Data()
            return "data:\(Self.mimeType(url));base64,\(data.base64EncodedString())"
        case .link, .none:
            return Self.relativePath(of: url, from: folder)
        }
    }

    static func mimeType(_ url: URL) -> String {
        switch url.pathExtension.lowercased() {
        case "flac": "audio/flac"
        case "mp3": "audio/mpeg"
        case "ogg", "opus": "audio/ogg"
        default: "audio/wav"
        }
    }

    /// `file`'s path relative to `folder` (`../corpus/noisy/c1.wav`), percent-encoded for a URL.
    static func relativePath(of file: URL, from folder: URL) -> String {
        let target = file.standardizedFileURL.pathComponents, base = folder.standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count, base.count) && target[common] == base[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        return parts.map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0 }.joined(separator: "/")
    }

    /// The scored run's pairs by clip id, found again from its parameters (corpus or folders).
    static func pairs(_ params: [String: String]) -> [String: ScorePair] {
        ScorePairing.pairs(ofRunParams: params)
    }
}
