import Foundation

/// Errors from reading or writing a mixed corpus's files (manifests, `mix.json`'s plan,
/// `archive.json`, tar shards) and from finding source files. Each names the file or input at
/// fault; the messages are those `MixError` gave before the corpus had its own folder.
public enum CorpusError: Error, Equatable, CustomStringConvertible, Sendable {
    /// An input (a source folder or list, a tar member) cannot be used.
    case invalidInput(name: String, value: String, reason: String)
    /// A corpus file cannot be written, or a manifest line does not parse.
    case outputConflict(path: String, reason: String)
    /// A mixed corpus holds fewer clips than its mix planned (the mix did not finish).
    case incompleteCorpus(path: String, present: Int, planned: Int)
    /// A folder is not a mixed corpus.
    case notACorpus(path: String, reason: String)

    /// A stable identifier of the case.
    public var code: String {
        switch self {
        case .invalidInput: "invalid-input"
        case .outputConflict: "output-conflict"
        case .incompleteCorpus: "incomplete-corpus"
        case .notACorpus: "not-a-corpus"
        }
    }

    public var description: String {
        switch self {
        case .invalidInput(let name, let value, let reason): "\(name) \(value): \(reason)"
        case .outputConflict(let path, let reason): "\(path): \(reason)"
        case .incompleteCorpus(let path, let present, let planned):
            "\(path): holds \(present) of the \(planned) clips its mix planned (\(planned - present) missing: the mix did not "
                + "finish); run the same mix again to finish it, or accept the clips present (allow-incomplete)"
        case .notACorpus(let path, let reason): "\(path): \(reason)"
        }
    }
}
