import Foundation

/// Why `sekit features merge` refused its shards (nothing is then written). Every case names the
/// file at fault.
public enum FeatureMergeError: Error, Equatable, CustomStringConvertible, Sendable {
    /// No shard files were given.
    case noShards
    /// The file cannot be read as a SEKit feature file (`reason`: HDF5's or the reader's).
    case notAFeatureFile(path: String, reason: String)
    /// A feature file that is not a shard of an export (`--shard i/N`), e.g. an unsharded or merged one.
    case notAShard(path: String, reason: String)
    /// The same file was given twice.
    case sameFileTwice(path: String)
    /// Two files are the same shard.
    case duplicateShard(path: String, other: String, shard: String)
    /// Shards of the set are absent (`missing`: `i/N` each).
    case missingShards(missing: [String], given: [String])
    /// A shard of another export: another shard count, other parameters or other clips.
    case mismatch(path: String, reference: String, reason: String)
    /// A shard exported from another corpus (another path, or another mix at that path).
    case differentCorpus(path: String, reference: String, reason: String)
    /// The output is one of the shards.
    case outputIsAShard(path: String)

    /// Short machine-readable code, stable across releases.
    public var code: String {
        switch self {
        case .noShards: "no-shards"
        case .notAFeatureFile: "not-a-feature-file"
        case .notAShard: "not-a-shard"
        case .sameFileTwice: "same-file-twice"
        case .duplicateShard: "duplicate-shard"
        case .missingShards: "missing-shards"
        case .mismatch: "shard-mismatch"
        case .differentCorpus: "different-corpus"
        case .outputIsAShard: "output-is-a-shard"
        }
    }

    public var description: String {
        switch self {
        case .noShards:
            "no shard files given"
        case .notAFeatureFile(let path, let reason):
            "\(path): not a SEKit feature file (HDF5): \(reason)"
        case .notAShard(let path, let reason):
            "\(path): not a shard: \(reason)"
        case .sameFileTwice(let path):
            "\(path): given twice"
        case .duplicateShard(let path, let other, let shard):
            "\(path): shard \(shard) again (\(other) is shard \(shard) too)"
        case .missingShards(let missing, let given):
            "missing shard\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) (given: \(given.joined(separator: ", ")))"
        case .mismatch(let path, let reference, let reason):
            "\(path): not a shard of the same export as \(reference): \(reason)"
        case .differentCorpus(let path, let reference, let reason):
            "\(path): exported from a different corpus than \(reference): \(reason)"
        case .outputIsAShard(let path):
            "\(path): the output is one of the shards; write the merge elsewhere"
        }
    }
}
