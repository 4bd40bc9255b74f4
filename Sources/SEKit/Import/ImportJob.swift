import Foundation

/// `sekit catalog import`: audio files recorded as sources of a corpus in the catalogue, in an
/// `import` run. The entry point has the shape of every command's (`ImportJob.run(Request, context:)`);
/// what is stored, and how, is `Catalog`'s (`Catalog.describeSource(file:relativePath:kind:corpus:regex:runID:)`,
/// `recordSources`).
public enum ImportJob {
    /// What to import.
    public struct Request: Sendable {
        /// Files and folders (folders are walked: sorted, hidden entries skipped, links followed).
        public var paths: [URL]
        public var kind: SourceKind
        /// The corpus the sources belong to (their ids are `CORPUS:relative/path`).
        public var corpus: String
        /// A regular expression searched in the relative path; its first capture group (or the
        /// whole match) becomes the speaker.
        public var speakerPattern: String?

        public init(paths: [URL], kind: SourceKind, corpus: String, speakerPattern: String? = nil) {
            self.paths = paths; self.kind = kind; self.corpus = corpus; self.speakerPattern = speakerPattern
        }
    }

    /// Imports audio files as sources: walks folders (sorted, hidden files skipped), reads each
    /// header, hashes the bytes (SHA-256) and records one source per file, in an `import` run.
    ///
    /// Idempotent: a file already recorded with the same id, path, hash and header is left alone;
    /// a changed one is updated. The id is `corpus:relative/path`, relative to the folder given
    /// (the file name for a file given directly); a file already recorded in the corpus from another
    /// root folder keeps its first id. Unreadable files are listed in the report and not recorded.
    /// - Throws: `CatalogError.invalidParameter(name:value:reason:)` for an empty corpus or a bad
    ///   pattern; database errors (the run is then marked failed); `RunsError` when the run cannot
    ///   be recorded.
    public static func run(_ request: Request, context: RunContext)
        throws -> (result: Catalog.ImportReport, run: RecordedRun) {
        let (paths, kind, corpus, speakerPattern) = (request.paths, request.kind, request.corpus, request.speakerPattern)
        guard let catalog = context.catalog else {
            throw CatalogError.invalidParameter(name: "catalog", value: "",
                                                reason: "an import records sources in a catalogue; none was given")
        }
        guard !corpus.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CatalogError.invalidParameter(name: "corpus", value: corpus, reason: "must not be empty")
        }
        var regex: NSRegularExpression?
        if let speakerPattern {
            do { regex = try NSRegularExpression(pattern: speakerPattern) } catch {
                throw CatalogError.invalidParameter(name: "speaker-pattern", value: speakerPattern,
                                                    reason: "not a valid regular expression")
            }
        }
        var params = ["kind": kind.rawValue, "corpus": corpus, "paths": paths.map(\.path).joined(separator: "\n")]
        if let speakerPattern { params["speaker_pattern"] = speakerPattern }
        let run = try RecordedRun.begin(context, kind: .import, name: corpus, params: params)
        let runID = run.id!
        var report = Catalog.ImportReport(runID: runID)
        try run.failing { () throws(CatalogError) in
            let files = Self.collectAudioFiles(paths, report: &report)
            var batch: [SourceRecord] = []
            for (file, relativePath) in files {
                do {
                    batch.append(try Catalog.describeSource(file: file, relativePath: relativePath, kind: kind, corpus: corpus,
                                                         regex: regex, runID: runID))
                } catch {
                    // The report names the path; keep only the reason from errors that also name it.
                    let text = "\(error)"
                    let reason = text.hasPrefix(file.path + ": ") ? String(text.dropFirst(file.path.count + 2)) : text
                    report.failures.append(.init(path: file.path, reason: reason))
                }
                if batch.count >= 256 { try catalog.recordSources(batch, into: &report); batch.removeAll() }
            }
            try catalog.recordSources(batch, into: &report)
        }
        // Files that could not be read are counted (`files_failed`; `failed` is its older name) and
        // the run is finished: the status policy of every run (``RecordedRun``).
        try run.finish(params: ["added": "\(report.added.count)", "updated": "\(report.updated.count)",
                                "unchanged": "\(report.unchanged)", "failed": "\(report.failures.count)",
                                "files_failed": "\(report.failures.count)"])
        return (report, run)
    }

    /// Files to import with their paths relative to the folder given: folders walked recursively and
    /// sorted, hidden entries and non-audio extensions skipped; missing paths reported as failures.
    static func collectAudioFiles(_ paths: [URL], report: inout Catalog.ImportReport) -> [(URL, String)] {
        var files: [(URL, String)] = []
        let manager = FileManager.default
        for path in paths {
            let root = path.standardizedFileURL
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
                report.failures.append(.init(path: root.path, reason: "no such file or folder"))
                continue
            }
            guard isDirectory.boolValue else {
                files.append((root, root.lastPathComponent))
                continue
            }
            // Sub-folders that cannot be listed and links that lead nowhere (dangling, or a loop)
            // are failures to report, not silently skipped; links to files and folders are followed.
            let walk = FolderWalk.files(in: root.path, skipsHidden: true)
            var unlisted: [Catalog.ImportReport.Failure] = []
            for problem in walk.problems {
                switch problem.kind {
                case .unlistable: unlisted.append(.init(path: problem.path, reason: "cannot list folder (permission denied)"))
                case .danglingLink, .loop:
                    // A link with an audio name is a file the user meant to import.
                    if Catalog.audioExtensions.contains((problem.path as NSString).pathExtension.lowercased()) {
                        unlisted.append(.init(path: problem.path, reason: "dangling or looping symbolic link"))
                    } else if problem.kind == .loop {
                        unlisted.append(.init(path: problem.path, reason: problem.reason))
                    }
                }
            }
            var found: [(URL, String)] = []
            for file in walk.files {
                let url = URL(fileURLWithPath: file.path)
                guard Catalog.audioExtensions.contains(url.pathExtension.lowercased()) else { report.skippedNonAudio += 1; continue }
                found.append((url, file.relative))
            }
            files += found.sorted { $0.1 < $1.1 }
            report.failures += unlisted.sorted { $0.path < $1.path }  // in path order, whatever the listing order
        }
        return files
    }
}
