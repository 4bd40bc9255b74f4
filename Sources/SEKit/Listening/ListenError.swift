import Foundation

/// Why a listening test cannot be made, imported or shown. Every case names the file, run, rater or
/// value at fault.
public enum ListenError: Error, Equatable, CustomStringConvertible, Sendable {
    /// An option's value is unusable (name without dashes, value, reason).
    case invalidOption(name: String, value: String, reason: String)
    /// A run lacks a clip the test needs, or its file is gone.
    case missingClip(run: String, clip: String, reason: String)
    /// The test folder's `test.json` is missing, unreadable or was edited after `listen make`.
    case badTest(path: String, reason: String)
    /// A results file does not belong to this test: its stimuli hash differs.
    case otherTest(path: String, expectedHash: String, foundHash: String)
    /// A results file (or its page) was altered: a stimulus it names is not the test's.
    case tampered(path: String, reason: String)
    /// A results file cannot be read, or holds a rating out of range or an incomplete trial.
    case badResults(path: String, reason: String)
    /// The rater of a results file is already in the catalogue for this test (or twice in the file).
    case duplicateRater(path: String, rater: String, test: String)
    /// No such test in the catalogue, or several when none was named.
    case unknownTest(name: String, known: [String])

    /// Short machine-readable code, stable across releases.
    public var code: String {
        switch self {
        case .invalidOption: "invalid-option"
        case .missingClip: "missing-clip"
        case .badTest: "bad-test"
        case .otherTest: "other-test"
        case .tampered: "tampered"
        case .badResults: "bad-results"
        case .duplicateRater: "duplicate-rater"
        case .unknownTest: "unknown-test"
        }
    }

    public var description: String {
        switch self {
        case .invalidOption(let name, let value, let reason): "invalid --\(name) \(value): \(reason)"
        case .missingClip(let run, let clip, let reason): "run \(run) cannot give clip \(clip): \(reason)"
        case .badTest(let path, let reason): "\(path): \(reason)"
        case .otherTest(let path, let expected, let found):
            "\(path): results of another test (stimuli hash \(found.prefix(12))…, this test's is \(expected.prefix(12))…)"
        case .tampered(let path, let reason): "\(path): tampered: \(reason)"
        case .badResults(let path, let reason): "\(path): \(reason)"
        case .duplicateRater(let path, let rater, let test):
            "\(path): rater \(rater) is already imported into test \(test); nothing imported"
        case .unknownTest(let name, let known):
            known.isEmpty
                ? "no listening test \(name.isEmpty ? "" : "\(name) ")in the catalogue (run `sekit listen import` first)"
                : name.isEmpty
                    ? "the catalogue holds several listening tests (\(known.joined(separator: ", "))); name one"
                    : "no listening test \(name) in the catalogue; it holds \(known.joined(separator: ", "))"
        }
    }
}

extension ListenError: ParameterError {
    public var invalidParameter: (name: String, value: String, reason: String)? {
        if case .invalidOption(let name, let value, let reason) = self { return (name, value, reason) }
        return nil
    }
}
