import Foundation
import GRDB

extension Catalog {
    /// An input catalogue of a merge, checked before anything is written, and read without ever
    /// being written: attached read-only, or, for a catalogue of an older SEKit (whose schema the
    /// copy needs), through a temporary copy migrated to the current schema.
    package struct MergeInput {
        /// The input as named (in messages and the report).
        package let url: URL
        /// A migrated temporary copy of an older input (nil: the input is read as it is).
        package let copy: URL?

        /// The file the merge reads.
        package var readURL: URL { copy ?? url }

        /// What `ATTACH` opens: a read-only URI of the file (where this SQLite takes URIs), else its path.
        package var attachName: String {
            guard Catalog.sqliteTakesURIs else { return readURL.path }
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "?#%")
            return "file:" + (readURL.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? readURL.path) + "?mode=ro"
        }

        /// Removes the temporary copy.
        package func discard() {
            guard let copy else { return }
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) }
        }
    }

    /// Whether SQLite takes `file:` URIs in `ATTACH` (compiled with `SQLITE_USE_URI`).
    package static let sqliteTakesURIs: Bool = {
        (try? DatabaseQueue().read { db in try Bool.fetchOne(db, sql: "SELECT sqlite_compileoption_used('USE_URI')") }) == true
    }()

    /// Checks every input of a merge into `output` before anything is written: it exists, is not
    /// `output`, is not empty, and is a catalogue of this SEKit or an older one (copied to a
    /// temporary file and migrated there; the input is never modified).
    /// - Throws: ``CatalogError`` naming the input: missing, empty, the output itself, not a
    ///   catalogue, from a newer SEKit; temporary copies already made are removed.
    package static func prepareMergeInputs(_ inputs: [URL], output: URL) throws(CatalogError) -> [MergeInput] {
        var prepared: [MergeInput] = []
        do {
            for input in inputs { prepared.append(try prepareMergeInput(input.standardizedFileURL, output: output)) }
        } catch {
            prepared.forEach { $0.discard() }
            throw error
        }
        return prepared
    }

    private static func prepareMergeInput(_ url: URL, output: URL) throws(CatalogError) -> MergeInput {
        // The same file under another name (a symbolic or hard link) is the output too.
        guard url.path != output.path, !sameFile(url, output) else {
            throw .invalidParameter(name: "IN", value: url.path, reason: "is the output catalogue \(output.path) (the same file)")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes else { throw .notFound(path: url.path) }
        if attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? NSNumber)?.intValue == 0 {
            throw .notACatalog(path: url.path, reason: "the file is empty (0 bytes): nothing to merge")
        }
        do {
            _ = try Catalog.openForReading(at: url)
            return MergeInput(url: url, copy: nil)
        } catch {
            guard case .olderSchema = error else { throw error }
        }
        // A catalogue of an older SEKit: its rows are copied from a migrated copy.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-merge-input-\(UUID().uuidString).sqlite")
        let input = MergeInput(url: url, copy: copy)
        do {
            var config = Configuration()
            config.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: config)
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copy.path]) }
        } catch {
            input.discard()
            throw .file(path: url.path, reason: "cannot copy this catalogue of an older SEKit to migrate the copy (\(copy.path)): \(error)")
        }
        do {
            _ = try Catalog.open(at: copy, create: false)
        } catch {
            input.discard()
            throw Self.renaming(error, from: copy.path, to: url.path)
        }
        return input
    }

    /// `error` with the temporary copy's path replaced by the input's.
    private static func renaming(_ error: CatalogError, from copy: String, to input: String) -> CatalogError {
        switch error {
        case let .notACatalog(path, reason) where path == copy: .notACatalog(path: input, reason: reason)
        case let .database(path, reason) where path == copy: .database(path: input, reason: "migrating a temporary copy: \(reason)")
        default: error
        }
    }
}
