import Foundation
import GRDB

extension Catalog {
    /// File extensions taken from folders by ``importSources(_:kind:corpus:speakerPattern:commandLine:)``
    /// (files named directly are always tried).
    public static let audioExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "aif", "aiff", "aifc", "au", "snd", "w64", "caf", "mp3", "sph", "nist"]

    /// What an import did.
    public struct ImportReport: Sendable, Codable {
        /// The `import` run that recorded it.
        public var runID: RunID
        /// Source ids newly recorded.
        public var added: [String] = []
        /// Source ids whose file changed (hash, header or path) and were updated.
        public var updated: [String] = []
        /// How many files were already recorded unchanged.
        public var unchanged = 0
        /// Files in folders skipped because their extension is not audio.
        public var skippedNonAudio = 0
        /// Files that could not be read, with the reason; they were not recorded.
        public var failures: [Failure] = []

        public struct Failure: Sendable, Codable, Equatable {
            public var path: String
            public var reason: String
        }
    }

    /// Imports audio files as sources: walks folders (sorted, hidden files skipped), reads each
    /// header, hashes the bytes (SHA-256) and records one source per file, in an `import` run.
    ///
    /// Idempotent: a file already recorded with the same id, path, hash and header is left alone;
    /// a changed one is updated. The id is `corpus:relative/path`, relative to the folder given
    /// (the file name for a file given directly); a file already recorded in the corpus from another
    /// root folder keeps its first id. Unreadable files are listed in the report and not recorded.
    /// - Parameters:
    ///   - paths: files and folders.
    ///   - speakerPattern: a regular expression searched in the relative path; its first capture
    ///     group (or the whole match) becomes the speaker.
    ///   - commandLine: recorded in the run.
    /// - Throws: ``CatalogError/invalidParameter(name:value:reason:)`` for an empty corpus or a bad
    ///   pattern; database errors (the run is then marked failed).
    public func importSources(_ paths: [URL], kind: SourceKind, corpus: String, speakerPattern: String? = nil,
                              commandLine: [String]) throws(CatalogError) -> ImportReport {
        guard !corpus.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidParameter(name: "corpus", value: corpus, reason: "must not be empty")
        }
        var regex: NSRegularExpression?
        if let speakerPattern {
            do { regex = try NSRegularExpression(pattern: speakerPattern) } catch {
                throw .invalidParameter(name: "speaker-pattern", value: speakerPattern, reason: "not a valid regular expression")
            }
        }
        var params = ["kind": kind.rawValue, "corpus": corpus, "paths": paths.map(\.path).joined(separator: "\n")]
        if let speakerPattern { params["speaker_pattern"] = speakerPattern }
        let run = try RecordedRun.begin(RunContext(catalog: self, commandLine: commandLine), kind: .import, name: corpus, params: params)
        let runID = run.id!
        var report = ImportReport(runID: runID)
        try run.failing { () throws(CatalogError) in
            let files = Self.collectAudioFiles(paths, report: &report)
            var batch: [SourceRecord] = []
            for (file, relativePath) in files {
                do {
                    batch.append(try Self.describeSource(file: file, relativePath: relativePath, kind: kind, corpus: corpus,
                                                         regex: regex, runID: runID))
                } catch {
                    // The report names the path; keep only the reason from errors that also name it.
                    let text = "\(error)"
                    let reason = text.hasPrefix(file.path + ": ") ? String(text.dropFirst(file.path.count + 2)) : text
                    report.failures.append(.init(path: file.path, reason: reason))
                }
                if batch.count >= 256 { try record(batch, into: &report); batch.removeAll() }
            }
            try record(batch, into: &report)
        }
        // Files that could not be read are counted (`files_failed`; `failed` is its older name) and
        // the run is finished: the status policy of every run (``RecordedRun``).
        try run.finish(params: ["added": "\(report.added.count)", "updated": "\(report.updated.count)",
                                "unchanged": "\(report.unchanged)", "failed": "\(report.failures.count)",
                                "files_failed": "\(report.failures.count)"])
        return report
    }

    /// Files to import with their paths relative to the folder given: folders walked recursively and
    /// sorted, hidden entries and non-audio extensions skipped; missing paths reported as failures.
    static func collectAudioFiles(_ paths: [URL], report: inout ImportReport) -> [(URL, String)] {
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
            var unlisted: [ImportReport.Failure] = []
            for problem in walk.problems {
                switch problem.kind {
                case .unlistable: unlisted.append(.init(path: problem.path, reason: "cannot list folder (permission denied)"))
                case .danglingLink, .loop:
                    // A link with an audio name is a file the user meant to import.
                    if audioExtensions.contains((problem.path as NSString).pathExtension.lowercased()) {
                        unlisted.append(.init(path: problem.path, reason: "dangling or looping symbolic link"))
                    } else if problem.kind == .loop {
                        unlisted.append(.init(path: problem.path, reason: problem.reason))
                    }
                }
            }
            var found: [(URL, String)] = []
            for file in walk.files {
                let url = URL(fileURLWithPath: file.path)
                guard audioExtensions.contains(url.pathExtension.lowercased()) else { report.skippedNonAudio += 1; continue }
                found.append((url, file.relative))
            }
            files += found.sorted { $0.1 < $1.1 }
            report.failures += unlisted.sorted { $0.path < $1.path }  // in path order, whatever the listing order
        }
        return files
    }

    /// Reads the header and hashes one file into a source record.
    static func describeSource(file: URL, relativePath: String, kind: SourceKind, corpus: String,
                               regex: NSRegularExpression?, runID: RunID) throws -> SourceRecord {
        let info = try AudioFile.info(at: file)
        let attributes: [FileAttributeKey: Any]
        let digest: String
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            digest = try SHA256.hex(ofFileAt: file)
        } catch {
            throw CatalogError.file(path: file.path, reason: "cannot read: \(error.localizedDescription)")
        }
        var speaker: String?
        if let regex {
            let range = NSRange(relativePath.startIndex..., in: relativePath)
            if let match = regex.firstMatch(in: relativePath, range: range) {
                let group = match.numberOfRanges > 1 && match.range(at: 1).location != NSNotFound ? match.range(at: 1) : match.range
                if let swiftRange = Range(group, in: relativePath) { speaker = String(relativePath[swiftRange]) }
            }
        }
        return SourceRecord(
            id: "\(corpus):\(relativePath)", kind: kind, corpus: corpus, path: file.path, relativePath: relativePath,
            sha256: digest, bytes: (attributes[.size] as? NSNumber)?.intValue ?? 0,
            modifiedAt: (attributes[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0),
            format: info.format, encoding: info.encoding, sampleRate: info.sampleRate, channels: info.channels,
            frames: info.frames, durationSeconds: info.durationSeconds, speaker: speaker, importRunID: runID)
    }

    /// Inserts new sources and updates changed ones, in one transaction.
    private func record(_ batch: [SourceRecord], into report: inout ImportReport) throws(CatalogError) {
        guard !batch.isEmpty else { return }
        let outcome: [(String, Int)] = try write { db in
            try batch.map { source in
                // The same file imported from another root folder keeps its first id.
                let sameFile = try SourceRecord.filter(SourceRecord.Columns.corpus == source.corpus && SourceRecord.Columns.path == source.path)
                    .order(SourceRecord.Columns.id).fetchOne(db)
                guard var existing = try SourceRecord.fetchOne(db, key: source.id) ?? sameFile else {
                    try source.insert(db)
                    return (source.id, 0)
                }
                var source = source
                source.id = existing.id
                source.relativePath = existing.relativePath
                if source.speaker == nil { source.speaker = existing.speaker }   // no pattern (or no match) keeps a known speaker
                // Same file, same content and header: nothing to do (the import run and mtime are not compared).
                existing.importRunID = source.importRunID
                existing.modifiedAt = source.modifiedAt
                if existing == source { return (source.id, 2) }
                try source.update(db)
                return (source.id, 1)
            }
        }
        for (id, state) in outcome {
            switch state {
            case 0: report.added.append(id)
            case 1: report.updated.append(id)
            default: report.unchanged += 1
            }
        }
    }
}
