import Foundation

/// Errors from writing and reading SEKit feature files (HDF5). Every case names the file
/// and, where there is one, the stream, clip, frame or parameter at fault.
public enum FeatureFileError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A libhdf5 call failed: `call` is the C function, `detail` HDF5's own explanation.
    case hdf5(path: String, call: String, detail: String)
    /// The output exists and `overwrite` was not requested.
    case outputExists(path: String)
    /// The file to read does not exist.
    case fileNotFound(path: String)
    /// The file opened but is not a SEKit feature file (a required dataset or attribute is missing or malformed).
    case notAFeatureFile(path: String, reason: String)
    /// A stream name was given that the file does not have (or, to `append`, that the writer was not created with).
    case unknownStream(path: String, stream: String)
    /// `append` was not given frames for a stream the file has.
    case missingStream(path: String, stream: String, clipID: String)
    /// A stream's value count is not a multiple of its bins.
    case shapeMismatch(path: String, stream: String, clipID: String, values: Int, bins: Int)
    /// Streams of one clip have different frame counts.
    case frameCountMismatch(path: String, clipID: String, stream: String, expectedFrames: Int, frames: Int)
    /// A clip with no frames.
    case emptyClip(path: String, clipID: String)
    /// The same clip id was appended twice.
    case duplicateClip(path: String, clipID: String)
    /// A value is NaN or infinite (feature files never store them).
    case nonFiniteValue(path: String, stream: String, clipID: String, frame: Int, bin: Int)
    /// A value does not fit in float16 (|x| > 65504); store float32 or a compressed/log feature instead.
    case float16Overflow(path: String, stream: String, clipID: String, frame: Int, bin: Int, value: Float)
    /// `finish` was called on a writer with no clips.
    case noClips(path: String)
    /// The writer was already finished (or failed); it accepts nothing more.
    case writerClosed(path: String)
    /// Statistics given to `finish` do not fit the stream (bins differ), or no statistics are stored for it.
    case statisticsMismatch(path: String, stream: String, reason: String)
    /// A clip id that is not in the file's index.
    case clipNotFound(path: String, clipID: String)
    /// A frame range outside a stream's frames.
    case frameRangeOutOfBounds(path: String, stream: String, lowerBound: Int, upperBound: Int, totalFrames: Int)
    /// A parameter value is invalid (name, value, what is wrong).
    case invalidParameter(name: String, value: String, reason: String)
    /// A file-system operation (rename, remove, sync) failed.
    case fileSystem(path: String, operation: String, reason: String)
    /// A merged feature file maps rows onto a shard file that is missing or changed (HDF5 would
    /// read them as zeros); `detail` names the stream, rows, shard file and problem.
    case missingShard(path: String, detail: String)
    /// `sekit features` found nothing to export in the corpus (no manifest, no clip of the split or shard, mixed rates).
    case nothingToExport(corpus: String, reason: String)
    /// A corpus file an export or synthesis reads is missing or unusable.
    case input(path: String, reason: String)
    /// A clip's stems, or its noisy WAV and the file's frames, do not agree.
    case clipMismatch(clipID: String, reason: String)
    /// Predictions that do not fit the feature file they are synthesised with (rows, bins, clips).
    case predictionsMismatch(path: String, features: String, reason: String)
    /// `features merge` was given no shard files.
    case noShards
    /// A file given to `features merge` is a feature file but not a shard (unsharded, or merged).
    case notAShard(path: String, reason: String)
    /// The same shard file given twice.
    case sameFileTwice(path: String)
    /// Two files of the same shard.
    case duplicateShard(path: String, other: String, shard: String)
    /// Shards of the export not given.
    case missingShards(missing: [String], given: [String])
    /// A shard of another export (other options, shard count or attributes).
    case shardMismatch(path: String, reference: String, reason: String)
    /// A shard exported from another corpus (or the corpus mixed again).
    case differentCorpus(path: String, reference: String, reason: String)
    /// The merge's output is one of its shards.
    case outputIsAShard(path: String)

    /// Short machine-readable code, stable across releases.
    public var code: String {
        switch self {
        case .hdf5: "hdf5"
        case .outputExists: "output-exists"
        case .fileNotFound: "file-not-found"
        case .notAFeatureFile: "not-a-feature-file"
        case .unknownStream: "unknown-stream"
        case .missingStream: "missing-stream"
        case .shapeMismatch: "shape-mismatch"
        case .frameCountMismatch: "frame-count-mismatch"
        case .emptyClip: "empty-clip"
        case .duplicateClip: "duplicate-clip"
        case .nonFiniteValue: "non-finite-value"
        case .float16Overflow: "float16-overflow"
        case .noClips: "no-clips"
        case .writerClosed: "writer-closed"
        case .statisticsMismatch: "statistics-mismatch"
        case .clipNotFound: "clip-not-found"
        case .frameRangeOutOfBounds: "frame-range-out-of-bounds"
        case .invalidParameter: "invalid-parameter"
        case .fileSystem: "file-system"
        case .missingShard: "missing-shard"
        case .nothingToExport: "nothing-to-export"
        case .input: "input"
        case .clipMismatch: "clip-mismatch"
        case .predictionsMismatch: "predictions-mismatch"
        case .noShards: "no-shards"
        case .notAShard: "not-a-shard"
        case .sameFileTwice: "same-file-twice"
        case .duplicateShard: "duplicate-shard"
        case .missingShards: "missing-shards"
        case .shardMismatch: "shard-mismatch"
        case .differentCorpus: "different-corpus"
        case .outputIsAShard: "output-is-a-shard"
        }
    }

    public var description: String {
        switch self {
        case .hdf5(let path, let call, let detail) where detail.contains("No space left on device"):
            "\(path): no space left on device (\(call) failed); the file was not written"
        case .hdf5(let path, let call, let detail):
            "\(path): \(call) failed\(detail.isEmpty ? "" : ": \(detail)")"
        case .outputExists(let path):
            "\(path): output exists (overwriting it must be asked for)"
        case .fileNotFound(let path):
            "\(path): no such file"
        case .notAFeatureFile(let path, let reason):
            "\(path): not a SEKit feature file: \(reason)"
        case .unknownStream(let path, let stream):
            "\(path): no stream named '\(stream)'"
        case .missingStream(let path, let stream, let clipID):
            "\(path): clip '\(clipID)' has no frames for stream '\(stream)'"
        case .shapeMismatch(let path, let stream, let clipID, let values, let bins):
            "\(path): clip '\(clipID)' stream '\(stream)': \(values) values is not a whole number of \(bins)-bin frames"
        case .frameCountMismatch(let path, let clipID, let stream, let expected, let frames):
            "\(path): clip '\(clipID)' stream '\(stream)' has \(frames) frames, other streams have \(expected)"
        case .emptyClip(let path, let clipID):
            "\(path): clip '\(clipID)' has no frames"
        case .duplicateClip(let path, let clipID):
            "\(path): clip '\(clipID)' appended twice"
        case .nonFiniteValue(let path, let stream, let clipID, let frame, let bin):
            "\(path): clip '\(clipID)' stream '\(stream)': NaN or infinite value at frame \(frame), bin \(bin)"
        case .float16Overflow(let path, let stream, let clipID, let frame, let bin, let value):
            "\(path): clip '\(clipID)' stream '\(stream)': value \(value) at frame \(frame), bin \(bin) "
                + "does not fit float16 (max 65504); use float32"
        case .noClips(let path):
            "\(path): no clips were written; refusing to create an empty feature file"
        case .writerClosed(let path):
            "\(path): writer is already finished"
        case .statisticsMismatch(let path, let stream, let reason):
            "\(path): statistics for stream '\(stream)': \(reason)"
        case .clipNotFound(let path, let clipID):
            "\(path): no clip '\(clipID)' in the index"
        case .frameRangeOutOfBounds(let path, let stream, let lower, let upper, let total):
            "\(path): stream '\(stream)': frames \(lower)..<\(upper) outside 0..<\(total)"
        case .invalidParameter(let name, let value, let reason):
            "invalid \(name) = \(value): \(reason)"
        case .fileSystem(let path, let operation, let reason):
            "\(path): \(operation) failed: \(reason)"
        case .missingShard(let path, let detail):
            "\(path): merged feature file whose shard is missing or changed (its rows would read as zeros): \(detail); "
                + "put the shard files back beside it (`sekit features check` lists them), or merge with --copy"
        case .nothingToExport(let corpus, let reason):
            "\(corpus): nothing to export: \(reason)"
        case .input(let path, let reason):
            "\(path): \(reason)"
        case .clipMismatch(let clipID, let reason):
            "clip \(clipID): \(reason)"
        case .predictionsMismatch(let path, let features, let reason):
            "\(path): predictions do not fit \(features): \(reason)"
        case .noShards:
            "no shard files given"
        case .notAShard(let path, let reason):
            "\(path): not a shard: \(reason)"
        case .sameFileTwice(let path):
            "\(path): given twice"
        case .duplicateShard(let path, let other, let shard):
            "\(path): shard \(shard) again (\(other) is shard \(shard) too)"
        case .missingShards(let missing, let given):
            "missing shard\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) (given: \(given.joined(separator: ", ")))"
        case .shardMismatch(let path, let reference, let reason):
            "\(path): not a shard of the same export as \(reference): \(reason)"
        case .differentCorpus(let path, let reference, let reason):
            "\(path): exported from a different corpus than \(reference): \(reason)"
        case .outputIsAShard(let path):
            "\(path): the output is one of the shards; write the merge elsewhere"
        }
    }
}

extension FeatureFileError {
    /// The feature-file error for a failed HDF5 call: ``hdf5(path:call:detail:)`` with the same
    /// file, call and HDF5 explanation, so the message names the file as before.
    init(_ error: HDF5Error) {
        switch error {
        case .callFailed(let path, let call, let detail): self = .hdf5(path: path, call: call, detail: detail)
        }
    }
}

/// Runs `body`, calls of the Features layer into the HDF5 wrappers of `Internal/`, and reports an
/// ``HDF5Error`` as ``FeatureFileError/hdf5(path:call:detail:)`` (same file, call and detail).
func hdf5<T>(_ body: () throws(HDF5Error) -> T) throws(FeatureFileError) -> T {
    do { return try body() } catch { throw FeatureFileError(error) }
}
