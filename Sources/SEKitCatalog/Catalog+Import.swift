import Foundation
import SEKitSignal
import GRDB

extension Catalog {
    /// File extensions taken from folders by `ImportJob`
    /// (files named directly are always tried).
    public static let audioExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "aif", "aiff", "aifc", "au", "snd", "w64", "caf",
                                                      "mp3", "sph", "nist"]

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

            /// Every stored property, in declaration order (the memberwise initialiser, visible to the package).
            package init(path: String, reason: String) {
                self.path = path
                self.reason = reason
            }
        }

        /// Every stored property, in declaration order (the memberwise initialiser, visible to the package).
        package init(runID: RunID, added: [String] = [], updated: [String] = [], failures: [Failure] = []) {
            self.runID = runID
            self.added = added
            self.updated = updated
            self.failures = failures
        }
    }

    /// Reads the header and hashes one file into a source record.
    package static func describeSource(file: URL, relativePath: String, kind: SourceKind, corpus: String,
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

    /// Inserts new sources and updates changed ones, in one transaction; counts them in `report`
    /// (a file already recorded unchanged is left alone).
    package func recordSources(_ batch: [SourceRecord], into report: inout ImportReport) throws(CatalogError) {
        guard !batch.isEmpty else { return }
        let outcome: [(String, Int)] = try write { db in
            try batch.map { source in
                // The same file imported from another root folder keeps its first id.
                let sameFile = try SourceRecord
                    .filter(SourceRecord.Columns.corpus == source.corpus && SourceRecord.Columns.path == source.path)
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
