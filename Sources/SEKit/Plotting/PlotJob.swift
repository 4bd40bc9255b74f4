import Foundation

/// What to draw with `sekit plot`.
public enum PlotKind: String, Sendable, CaseIterable, Codable {
    /// Log-magnitude STFT in dB, frequency in kHz, one colour bar.
    case spectrogram
    /// RMS level per pixel column in dBFS (the way voice-message waveforms are drawn).
    case waveform
    /// Both, a spectrogram and a level panel per file.
    case both
}

/// `sekit plot` as one library entry point: reads the files, checks that they belong on one time
/// axis, reduces each to the figure's pixel grid, lays out the panels and writes PNG (libpng) or
/// SVG, atomically.
public enum PlotJob {
    /// Spectrogram rows per panel: the panel height in pixels.
    static var spectrogramRows: Int { PlotLayout.spectrogramHeight }

    /// Draws the request's figure and writes it (atomically, claiming the output).
    /// - Throws: ``PlotError`` for bad options, unreadable files, files of different rates or
    ///   lengths without `maxSeconds`; file errors when the output cannot be written.
    public static func run(_ request: Request) throws -> Outcome {
        let (data, outcome) = try render(request)
        let lock = try OutputLock(output: request.output.path, lockFile: OutputLock.lockFile(besideFile: request.output))
        defer { withExtendedLifetime(lock) {} }
        try AtomicFile.write(data, to: request.output)
        return outcome
    }

    /// The figure's bytes (PNG or SVG, by the output's extension), without writing them.
    /// - Throws: as ``run(_:)``, except for writing.
    public static func render(_ request: PlotJob.Request) throws -> (data: Data, outcome: PlotJob.Outcome) {
        let format = request.output.pathExtension.lowercased()
        guard format == "png" || format == "svg" else {
            throw PlotError.invalidOption(name: "out", value: request.output.path, reason: "must end in .png or .svg")
        }
        guard !request.files.isEmpty else { throw PlotError.invalidOption(name: "files", value: "",
                                                                          reason: "give at least one audio file") }
        guard request.dbRange.isFinite, request.dbRange >= 10, request.dbRange <= 200 else {
            throw PlotError.invalidOption(name: "db-range", value: "\(request.dbRange)", reason: "must be from 10 to 200 dB")
        }
        if let seconds = request.maxSeconds, !(seconds.isFinite && seconds > 0) {
            throw PlotError.invalidOption(name: "max-seconds", value: "\(seconds)", reason: "must be a positive number of seconds")
        }
        guard request.widthPixels >= 400, request.widthPixels <= 8000 else {
            throw PlotError.invalidOption(name: "width", value: "\(request.widthPixels)", reason: "must be from 400 to 8000 pixels")
        }
        let labels = request.labels ?? defaultLabels(request.files)
        guard labels.count == request.files.count else {
            throw PlotError.invalidOption(name: "labels", value: labels.joined(separator: ","),
                                          reason: "\(labels.count) labels for \(request.files.count) files")
        }
        let signals = try read(request.files, maxSeconds: request.maxSeconds)
        let seconds = signals.map { Double($0.samples.count) / Double($0.sampleRate) }.max()!
        let layout = PlotLayout(width: request.widthPixels, title: request.title, dbRange: request.dbRange)
        var panels: [PlotLayout.Panel] = []
        for (signal, label) in zip(signals, labels) {
            let duration = Double(signal.samples.count) / Double(signal.sampleRate)
            let columns = max(1, Int((Double(layout.plotWidth) * duration / seconds).rounded()))
            if request.kind != .waveform {
                let levels = SignalPicture.spectrogramDB(signal.samples, sampleRate: signal.sampleRate, columns: columns,
                                                         rows: spectrogramRows)
                panels.append(.init(label: label, content: .spectrogram(levelsDB: levels, columns: columns, rows: spectrogramRows,
                                                                        nyquistHz: Double(signal.sampleRate) / 2), seconds: duration))
            }
            if request.kind != .spectrogram {
                panels.append(.init(label: label, content: .level(dbfs: SignalPicture.levelsDBFS(signal.samples,
                        sampleRate: signal.sampleRate, columns: columns)),
                                    seconds: duration))
            }
        }
        let figure = layout.figure(panels, seconds: seconds)
        let data: Data
        if format == "png" {
            do { data = try PNGCodec.encode(rgba: RasterCanvas.render(figure).rgba, width: figure.width, height: figure.height) } catch {
                throw PlotError.encoding(reason: error.description)
            }
        } else {
            data = Data(try SVGFigure.document(figure).utf8)
        }
        return (data, PlotJob.Outcome(output: request.output, widthPixels: figure.width, heightPixels: figure.height, panels: panels.count,
                                  seconds: seconds, description: figure.description))
    }

    /// File names without extension; with the parent folder when two names are the same
    /// (`noisy/a`, `clean/a`).
    static func defaultLabels(_ files: [URL]) -> [String] {
        let names = files.map { $0.deletingPathExtension().lastPathComponent }
        guard Set(names).count < names.count else { return names }
        return files.map { $0.deletingLastPathComponent().lastPathComponent + "/" + $0.deletingPathExtension().lastPathComponent }
    }

    /// The files' samples (mono), cropped to `maxSeconds`; a stem of an archive corpus
    /// (`CORPUS/noisy/CLIP_ID.wav`, see ``MixCorpusAudio/location(ofPath:)``) from its shard. Without
    /// `maxSeconds`, every file must have the first one's rate and length.
    static func read(_ files: [URL], maxSeconds: Double?) throws -> [AudioBuffer] {
        var signals: [AudioBuffer] = []
        for file in files {
            var buffer: AudioBuffer
            // A stem of an archive corpus (`CORPUS/noisy/CLIP_ID.wav`) is read from its shard.
            do { buffer = try AudioFile.read(MixCorpusAudio.location(ofPath: file)) } catch {
                // Audio errors name the file already: say it once.
                let said = "\(error)", prefix = file.path + ": "
                throw PlotError.file(path: file.path, reason: said.hasPrefix(prefix) ? String(said.dropFirst(prefix.count)) : said)
            }
            guard !buffer.samples.isEmpty else { throw PlotError.file(path: file.path, reason: "holds no samples") }
            if let maxSeconds {
                // In Double: a span longer than any file (1e15 s) keeps the whole file, it does not overflow Int.
                let wanted = (maxSeconds * Double(buffer.sampleRate)).rounded()
                let keep = wanted >= Double(buffer.samples.count) ? buffer.samples.count : max(1, Int(wanted))
                if keep < buffer.samples.count { buffer = AudioBuffer(samples: Array(buffer.samples.prefix(keep)),
                                                                      sampleRate: buffer.sampleRate) }
            } else if let first = signals.first {
                if buffer.sampleRate != first.sampleRate {
                    throw PlotError.file(path: file.path, reason: "\(buffer.sampleRate) Hz, \(files[0].path) is \(first.sampleRate) Hz "
                        + "(panels share one time axis; crop with --max-seconds to plot different rates together)")
                }
                if buffer.samples.count != first.samples.count {
                    throw PlotError.file(path: file.path,
                                         reason: "\(buffer.samples.count) samples, \(files[0].path) has \(first.samples.count) "
                        + "(give --max-seconds to crop them to a common span)")
                }
            }
            signals.append(buffer)
        }
        return signals
    }
}

extension PlotJob {
    /// A figure request: the files, stacked top to bottom, and how to draw them.
    public struct Request: Sendable {
        public var files: [URL]
        /// `.png` or `.svg` (by extension).
        public var output: URL
        public var kind: PlotKind = .spectrogram
        public var title: String?
        /// One per file (default: the file names).
        public var labels: [String]?
        /// Range of the colour scale and of the level axis, dB.
        public var dbRange: Double = 80
        /// Crop every file to its first seconds (files may then differ in length and rate).
        public var maxSeconds: Double?
        /// Figure width, pixels.
        public var widthPixels = 1200

        public init(files: [URL], output: URL) { self.files = files; self.output = output }
    }

    /// What was drawn.
    public struct Outcome: Sendable {
        public var output: URL
        public var widthPixels: Int
        public var heightPixels: Int
        public var panels: Int
        /// The time axis's span, s.
        public var seconds: Double
        /// What the figure shows, in words (its SVG title; alt text where it is shown).
        public var description: String
    }
}
