import Foundation
import SEKitSignal

/// Errors from the catalogue. Every case names the catalogue file, the input file, the run or
/// the filter at fault, and the reason.
public enum CatalogError: Error, Equatable, CustomStringConvertible, Sendable {
    /// No catalogue exists at the path and the command does not create one.
    case notFound(path: String)
    /// The file at the path is not an SQLite database, or SQLite reports it corrupt. It is left untouched.
    case notACatalog(path: String, reason: String)
    /// The catalogue was written by a newer SEKit: it holds migrations this version does not know.
    case newerSchema(path: String, unknownMigrations: [String])
    /// The catalogue lacks schema migrations this SEKit applies; it was opened for reading, which
    /// never migrates. A command that writes to it migrates it.
    case olderSchema(path: String, missingMigrations: [String])
    /// `catalog merge`: rows of `input` whose key `output` holds with other content; nothing of the
    /// input was merged.
    case mergeConflict(input: String, output: String, conflicts: [String])
    /// SQLite refused an operation (constraint, I/O, lock).
    case database(path: String, reason: String)
    /// A run id was not found (or a prefix matched none or several runs).
    case unknownRun(path: String, id: String, reason: String)
    /// A run reference (name or id prefix) matched several runs; `candidates` describes each.
    case ambiguousRun(path: String, reference: String, candidates: [String])
    /// A run reference (id, id prefix or name) matched no run; `candidates` describes the runs it may
    /// have meant (names alike, else the latest runs).
    case noSuchRun(path: String, reference: String, candidates: [String])
    /// A filter expression did not parse or names an unknown column.
    /// `column` is the 1-based character position where it failed.
    case filter(expression: String, column: Int, reason: String)
    /// An input file could not be read or recorded.
    case file(path: String, reason: String)
    /// A parameter value is invalid (name, value, what is wrong).
    case invalidParameter(name: String, value: String, reason: String)

    /// Short machine-readable code, stable across releases.
    public var code: String {
        switch self {
        case .notFound: "not-found"
        case .notACatalog: "not-a-catalog"
        case .newerSchema: "newer-schema"
        case .olderSchema: "older-schema"
        case .mergeConflict: "merge-conflict"
        case .database: "database"
        case .unknownRun: "unknown-run"
        case .ambiguousRun: "ambiguous-run"
        case .noSuchRun: "no-such-run"
        case .filter: "filter"
        case .file: "file"
        case .invalidParameter: "invalid-parameter"
        }
    }

    public var description: String {
        switch self {
        case .notFound(let path):
            "\(path): no catalogue here (a catalogue is created by the first import or mix recorded into it)"
        case .notACatalog(let path, let reason):
            "\(path): not a usable SEKit catalogue (\(reason)); the file was left untouched"
        case .newerSchema(let path, let unknown):
            "\(path): catalogue was written by a newer SEKit (unknown schema migrations: \(unknown.joined(separator: ", "))); "
                + "this is SEKit \(SEKitVersion.string), please upgrade"
        case .olderSchema(let path, let missing):
            "\(path): catalogue has an older schema (schema migrations not applied yet: \(missing.joined(separator: ", "))); "
                + "reading commands leave it as it is: a command that writes to it "
                + "(sekit catalog check without --dry-run, catalog import, mix) migrates it, then it can be read"
        case .mergeConflict(let input, let output, let conflicts):
            "\(input): \(conflicts.count) row(s) conflict with \(output) (same key, different content); nothing of this input was merged "
                + "(inputs named before it were; merging again adds nothing, so re-run choosing with --on-conflict keep-first|rename):\n"
                + conflicts.map { "  \($0)" }.joined(separator: "\n")
        case .database(let path, let reason):
            "\(path): \(reason)"
        case .unknownRun(let path, let id, let reason):
            "\(path): run \(id): \(reason)"
        case .ambiguousRun(let path, let reference, let candidates):
            "\(path): '\(reference)' names \(candidates.count) runs; give the run id (or an unambiguous prefix):\n"
                + candidates.map { "  \($0)" }.joined(separator: "\n")
        case .noSuchRun(let path, let reference, let candidates):
            "\(path): no run has the id, id prefix or name '\(reference)'"
                + (candidates.isEmpty ? "" : "; runs it may be:\n" + candidates.map { "  \($0)" }.joined(separator: "\n"))
        case .filter(let expression, let column, let reason):
            "filter: \(reason) at column \(column)\n  \(expression)\n  \(String(repeating: " ", count: max(0, column - 1)))^"
        case .file(let path, let reason):
            "\(path): \(reason)"
        case .invalidParameter(let name, let value, let reason):
            "invalid \(name) = \(value): \(reason)"
        }
    }
}
