import Foundation

/// Storage type of the feature values in a feature file (`--dtype`).
public enum FeatureDType: String, Sendable, CaseIterable, Equatable {
    /// IEEE binary32 little-endian (`<f4`).
    case float32
    /// IEEE binary16 little-endian (`<f2`; h5py reads it as `numpy.float16`). Values are rounded
    /// to nearest-even; magnitudes above 65504 are refused, not stored as infinity.
    case float16

    /// Bytes per stored value.
    public var bytesPerValue: Int { self == .float32 ? 4 : 2 }
}

/// Compression of the packed feature datasets (`--compression none|gzip[:level]`).
public enum FeatureCompression: Equatable, Sendable, CustomStringConvertible {
    /// Stored as is.
    case none
    /// HDF5's shuffle filter followed by deflate (gzip) at `level` 1...9. Shuffle groups the
    /// bytes of each value by significance, which makes float data compress noticeably better.
    case gzip(level: Int)

    /// The level `gzip` without a level means (zlib's default trade-off).
    public static let defaultGzipLevel = 4

    /// Parses `none`, `gzip` or `gzip:LEVEL` (1...9).
    /// - Throws: ``FeatureFileError/invalidParameter(name:value:reason:)`` naming `compression`.
    public init(parsing text: String) throws(FeatureFileError) {
        let parts = text.lowercased().split(separator: ":", omittingEmptySubsequences: false)
        switch (parts.first, parts.count) {
        case ("none", 1): self = .none
        case ("gzip", 1): self = .gzip(level: Self.defaultGzipLevel)
        case ("gzip", 2):
            guard let level = Int(parts[1]), (1...9).contains(level) else {
                throw .invalidParameter(name: "compression", value: text, reason: "gzip level must be 1...9")
            }
            self = .gzip(level: level)
        default:
            throw .invalidParameter(name: "compression", value: text, reason: "expected none, gzip or gzip:LEVEL")
        }
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .gzip(let level): "gzip:\(level)"
        }
    }
}

/// One packed stream of a feature file: a 2-D dataset `/<name>` of shape `[total_frames, bins]`.
public struct StreamSpec: Equatable, Hashable, Sendable {
    /// Dataset name at the file's root (`noisy`, `clean`, `noise`, `irm`, `ibm`, `psm`, `noisy_phase`, ...).
    public var name: String
    /// Values per frame (for an STFT, `nFFT / 2 + 1`).
    public var bins: Int

    public init(_ name: String, bins: Int) {
        self.name = name
        self.bins = bins
    }
}

/// The provenance every feature file carries as root attributes.
public struct FeatureFileMetadata: Equatable, Sendable {
    /// Sample rate of the audio the features were computed from, Hz (`sample_rate`).
    public var sampleRate: Int
    /// How a clip's frame count follows from its length (`frame_convention`), e.g.
    /// `"center: 1 + num_samples // hop_length"`.
    public var frameConvention: String
    /// Catalogue id of the mix run that produced the audio (`mix_run_id`; empty if none).
    public var mixRunID: String
    /// Catalogue id of the features run writing this file (`features_run_id`).
    public var featuresRunID: String

    public init(sampleRate: Int, frameConvention: String, mixRunID: String, featuresRunID: String) {
        self.sampleRate = sampleRate
        self.frameConvention = frameConvention
        self.mixRunID = mixRunID
        self.featuresRunID = featuresRunID
    }
}

/// One clip in a feature file's index: its frames are rows `offset..<offset+numFrames` of every stream.
public struct FeatureClip: Equatable, Hashable, Sendable {
    public var clipID: String
    /// Split name (`train`, `valid`, `test`, ...), `/index/split`.
    public var split: String
    /// First frame of the clip in the packed datasets, `/index/offset`.
    public var offset: Int
    /// Frames of the clip, `/index/num_frames`.
    public var numFrames: Int
    /// Mixing SNR in dB, `/index/snr_db` (NaN in the file when unknown).
    public var snrDB: Double?

    public init(clipID: String, split: String, offset: Int, numFrames: Int, snrDB: Double?) {
        self.clipID = clipID
        self.split = split
        self.offset = offset
        self.numFrames = numFrames
        self.snrDB = snrDB
    }

    /// The clip's rows in the packed datasets.
    public var frameRange: Range<Int> { offset..<(offset + numFrames) }
}

/// Names and constants of the feature-file layout: a public contract, read by
/// `experiments/python/sekit_dataset.py` and by anyone's h5py code.
public enum FeatureFileLayout {
    /// Bumped when the layout changes incompatibly (`format_version` root attribute).
    public static let formatVersion = 1
    /// Index group and its datasets.
    public static let indexGroup = "index"
    public static let clipIDDataset = "clip_id"
    public static let offsetDataset = "offset"
    public static let numFramesDataset = "num_frames"
    public static let snrDBDataset = "snr_db"
    public static let splitDataset = "split"
    /// Statistics group: `/stats/<stream>/mean`, `/stats/<stream>/std`, attributes `count`, `split`.
    public static let statsGroup = "stats"
    /// Root attributes the writer sets itself; a caller's attributes must not use these names.
    public static let reservedAttributes: Set<String> = [
        FeatureFileAttributes.Name.formatVersion, FeatureFileAttributes.Name.sekitVersion,
        FeatureFileAttributes.Name.frameConvention, FeatureFileAttributes.Name.sampleRate, FeatureFileAttributes.Name.mixRunID,
        FeatureFileAttributes.Name.featuresRunID, FeatureFileAttributes.Name.dtype, FeatureFileAttributes.Name.compression,
        FeatureFileAttributes.Name.chunkFrames, FeatureFileAttributes.Name.streams,
    ]

    /// Target bytes per chunk.
    ///
    /// Chunks are `[chunkFrames, bins]`: whole frames, so reading any run of frames touches
    /// only the chunks that hold it. 512 KiB is large enough that sequential reads and gzip
    /// work on big blocks (per-chunk overhead: one B-tree lookup, one filter call), and small
    /// enough to fit twice in h5py's default 1 MiB chunk cache (a compressed chunk that does not
    /// fit is decompressed again for every partial read) and that a random segment of a few
    /// hundred frames (say 300 frames ≈ 300 KiB at 257 float32 bins) reads at most two chunks,
    /// about 1 MiB. At 257 bins this is 510 frames (float32, ~8 s of 16 kHz audio at hop 256)
    /// or 1020 frames (float16).
    public static let targetChunkBytes = 512 * 1024

    /// Frames per chunk for `bins` values of `dtype`: `targetChunkBytes / (bins × bytes)`, at least 1, at most 65536.
    public static func chunkFrames(bins: Int, dtype: FeatureDType) -> Int {
        min(max(targetChunkBytes / max(bins * dtype.bytesPerValue, 1), 1), 65536)
    }
}
