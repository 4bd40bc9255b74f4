import Foundation
import GRDB

extension Catalog {
    /// A file a command used as a source, to be linked to its `sources` row.
    public struct UsedFile: Sendable, Hashable {
        public var path: String
        public var kind: SourceKind
        /// Corpus name for a file the catalogue does not know yet (e.g. the folder it came from).
        public var corpus: String
        /// Path inside the corpus, for the `relative_path` column.
        public var relativePath: String
        public var speaker: String?

        public init(path: String, kind: SourceKind, corpus: String, relativePath: String, speaker: String? = nil) {
            self.path = path; self.kind = kind; self.corpus = corpus; self.relativePath = relativePath; self.speaker = speaker
        }
    }

    /// The source ids of files a run used, registering the ones the catalogue does not know.
    ///
    /// A file already recorded (same absolute path and kind, from `catalog import` or an earlier
    /// run) keeps its id. An unknown file is described (header, SHA-256) and recorded with id
    /// `CORPUS:/absolute/path` (unique, and the same on every run), `import_run_id` = `run`.
    /// - Returns: source id by the path as given.
    /// - Throws: ``CatalogError/file(path:reason:)`` for a file that cannot be read or hashed.
    public func sourceIDs(registering files: [UsedFile], run: RunID) throws(CatalogError) -> [String: String] {
        let unique = Array(Set(files)).sorted { ($0.kind.rawValue, $0.path) < ($1.kind.rawValue, $1.path) }
        var ids: [String: String] = [:]
        var unknown: [(UsedFile, String)] = []
        try read { db in
            for file in unique {
                let absolute = URL(fileURLWithPath: file.path).standardizedFileURL.path
                let known = try SourceRecord
                    .filter(SourceRecord.Columns.path == absolute && SourceRecord.Columns.kind == file.kind.rawValue)
                    .order(SourceRecord.Columns.id).fetchOne(db)
                if let known { ids[file.path] = known.id } else { unknown.append((file, absolute)) }
            }
        }
        var fresh: [SourceRecord] = []
        for (file, absolute) in unknown {
            var record: SourceRecord
            do {
                record = try Self.describeSource(file: URL(fileURLWithPath: absolute), relativePath: file.relativePath,
                                                 kind: file.kind, corpus: file.corpus, regex: nil, runID: run)
            } catch let error as CatalogError {
                throw error
            } catch {
                throw .file(path: absolute, reason: "\(error)")
            }
            record.id = "\(file.corpus):\(absolute)"
            record.speaker = file.speaker
            fresh.append(record)
            ids[file.path] = record.id
        }
        if !fresh.isEmpty {
            try write { db in for record in fresh { try record.insert(db, onConflict: .ignore) } }
        }
        return ids
    }
}
