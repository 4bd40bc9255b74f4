import Foundation

/// Errors from reading, writing and measuring audio. Every case names the file at fault
/// (or the parameter, for in-memory problems) and the reason.
public enum AudioError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file does not exist.
    case fileNotFound(path: String)
    /// The file exists but has no bytes.
    case emptyFile(path: String)
    /// libsndfile could not open or parse the file (corrupt or truncated header, unsupported format).
    case unreadable(path: String, reason: String)
    /// The file opened but holds no samples.
    case zeroLength(path: String)
    /// The file holds NaN or infinite samples; `sampleIndex` is the first one (frame index).
    case nonFiniteSamples(path: String, sampleIndex: Int)
    /// Reading stopped before the frame count the header promised.
    case truncated(path: String, expectedFrames: Int, readFrames: Int)
    /// A channel was requested that the file does not have.
    case channelOutOfRange(path: String, channel: Int, channels: Int)
    /// Writing failed.
    case writeFailed(path: String, reason: String)
    /// A parameter value is invalid (name, value, what is wrong).
    case invalidParameter(name: String, value: String, reason: String)

    /// Short machine-readable code, stable across releases.
    public var code: String {
        switch self {
        case .fileNotFound: "file-not-found"
        case .emptyFile: "empty-file"
        case .unreadable: "unreadable"
        case .zeroLength: "zero-length"
        case .nonFiniteSamples: "non-finite-samples"
        case .truncated: "truncated"
        case .channelOutOfRange: "channel-out-of-range"
        case .writeFailed: "write-failed"
        case .invalidParameter: "invalid-parameter"
        }
    }

    public var description: String {
        switch self {
        case .fileNotFound(let path): "\(path): no such file"
        case .emptyFile(let path): "\(path): file is empty (0 bytes)"
        case .unreadable(let path, let reason): "\(path): cannot read audio: \(reason)"
        case .zeroLength(let path): "\(path): audio has no samples"
        case .nonFiniteSamples(let path, let index): "\(path): NaN or infinite sample at frame \(index)"
        case .truncated(let path, let expected, let read): "\(path): truncated: header promises \(expected) frames, read \(read)"
        case .channelOutOfRange(let path, let channel, let channels): "\(path): channel \(channel) requested, file has \(channels)"
        case .writeFailed(let path, let reason): "\(path): cannot write: \(reason)"
        case .invalidParameter(let name, let value, let reason): "invalid \(name) = \(value): \(reason)"
        }
    }
}
