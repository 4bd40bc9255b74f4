/// Errors from planning and rendering a mix. Each names the option, value or file at fault.
public enum MixError: Error, Equatable, CustomStringConvertible, Sendable {
    /// An option's value does not parse or is out of range.
    case invalidOption(name: String, value: String, reason: String)
    /// No usable source of a kind is left after skipping bad ones.
    case noUsableSources(kind: String, skipped: Int)
    /// A split cannot be honoured (e.g. more splits than sources).
    case invalidSplit(reason: String)
    /// The output folder holds a different run's corpus.
    case outputConflict(path: String, reason: String)
    /// A mixed corpus holds fewer clips than its mix planned (the mix did not finish).
    case incompleteCorpus(path: String, present: Int, planned: Int)
    /// A folder is not a mixed corpus.
    case notACorpus(path: String, reason: String)
    /// A clip could not be produced (e.g. every draw clipped under the `reject` clipping policy).
    case clipFailed(index: Int, reason: String)
    /// A clip of a manifest given to `--from-manifest` cannot be rendered as it stands (line 1-based).
    case manifestClip(manifest: String, line: Int, clipID: String, reason: String)
    /// A source a manifest names is not there.
    case missingSource(path: String, kind: String, manifest: String, line: Int, clipID: String)
    /// A source a manifest names holds other bytes than when it was mixed (its SHA-256 differs from `mix.json`'s).
    case changedSource(path: String, kind: String, expectedSHA256: String, foundSHA256: String)

    public var code: String {
        switch self {
        case .invalidOption: "invalid-option"
        case .noUsableSources: "no-usable-sources"
        case .invalidSplit: "invalid-split"
        case .outputConflict: "output-conflict"
        case .clipFailed: "clip-failed"
        case .incompleteCorpus: "incomplete-corpus"
        case .notACorpus: "not-a-corpus"
        case .manifestClip: "manifest-clip"
        case .missingSource: "missing-source"
        case .changedSource: "changed-source"
        }
    }

    public var description: String {
        switch self {
        case .invalidOption(let name, let value, let reason): "\(name) \(value): \(reason)"
        case .noUsableSources(let kind, let skipped): "no usable \(kind) source (\(skipped) skipped; see the warnings above)"
        case .invalidSplit(let reason): "split: \(reason)"
        case .outputConflict(let path, let reason): "\(path): \(reason)"
        case .clipFailed(let index, let reason): "clip \(index): \(reason)"
        case .incompleteCorpus(let path, let present, let planned):
            "\(path): holds \(present) of the \(planned) clips its mix planned (\(planned - present) missing: the mix did not finish); "
                + "run the same mix again to finish it, or accept the clips present (allow-incomplete)"
        case .notACorpus(let path, let reason): "\(path): \(reason)"
        case .manifestClip(let manifest, let line, let clipID, let reason): "\(manifest) line \(line) (clip \(clipID)): \(reason)"
        case .missingSource(let path, let kind, let manifest, let line, let clipID):
            "\(path): no such \(kind) source (named by \(manifest) line \(line), clip \(clipID)); nothing was rendered"
        case .changedSource(let path, let kind, let expected, let found):
            "\(path): the \(kind) source has changed since the mix (SHA-256 \(found), mix.json records \(expected)); nothing was rendered"
        }
    }
}
