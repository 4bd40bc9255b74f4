import Foundation

/// A packed stream found in a feature file.
public struct FeatureStreamInfo: Equatable, Sendable {
    public var name: String
    /// Values per frame.
    public var bins: Int
    /// Rows of the packed dataset.
    public var totalFrames: Int
    /// Bytes per stored value (2 for float16, 4 for float32, 8 for float64 predictions).
    public var bytesPerValue: Int
    /// Frames per chunk, nil for a contiguous dataset.
    public var chunkFrames: Int?
    /// `.gzip(level:)` when the deflate filter is present.
    public var compression: FeatureCompression
    /// Whether the shuffle filter is present.
    public var shuffle: Bool

    /// The stored type as a SEKit dtype (nil for other float sizes).
    public var dtype: FeatureDType? { bytesPerValue == 4 ? .float32 : bytesPerValue == 2 ? .float16 : nil }
}

/// Normalisation statistics stored under `/stats/<stream>`.
public struct StoredStatistics: Equatable, Sendable {
    public var stream: String
    /// Per-bin mean, `[bins]`.
    public var mean: [Double]
    /// Per-bin population standard deviation, `[bins]`.
    public var standardDeviation: [Double]
    /// Frames the statistics were computed over.
    public var count: Int
    /// The split they describe.
    public var split: String
}

/// Reads a SEKit feature file (or any HDF5 file with the same layout, such as a model's
/// predictions with a copied `/index`): streams, index, root attributes, a clip's frames, statistics.
///
/// Required: `/index/offset`, `/index/num_frames`, `/index/clip_id`; `/index/split` and
/// `/index/snr_db` are optional (empty and unknown when absent). Streams are the 2-D float
/// datasets at the root. Values are returned as `Float` whatever the stored float type.
///
/// Thread safety: calls may come from any thread (HDF5 calls are serialised process-wide).
public final class FeatureFileReader: @unchecked Sendable {
    public let url: URL
    /// Packed streams in name order.
    public let streams: [FeatureStreamInfo]
    /// The index, in file order.
    public let clips: [FeatureClip]
    /// Root attributes (STFT and feature parameters, provenance).
    public let attributes: [String: AttributeValue]
    /// Each clip's index in its corpus (`/index/clip_index`, in file order), in a shard's file
    /// and a merged one; nil when the file has none (an unsharded export).
    public let clipIndices: [Int]?

    private let file: HDF5Handle
    private let datasets: [String: HDF5Handle]
    private let clipPositions: [String: Int]

    /// Opens `url` read-only and reads its index, streams and root attributes. A merged file's
    /// shards (virtual datasets) are checked to be present and of the shape it maps
    /// (``FeatureShardMapping``): HDF5 would read a missing one as zeros.
    /// - Throws: ``FeatureFileError/fileNotFound(path:)``, ``FeatureFileError/notAFeatureFile(path:reason:)``,
    ///   ``FeatureFileError/missingShard(path:detail:)``, ``FeatureFileError/hdf5(path:call:detail:)``.
    public convenience init(url: URL) throws(FeatureFileError) {
        try self.init(url: url, verifyingShards: true)
    }

    /// ``init(url:)``, checking a merged file's shards only with `verifyingShards`.
    init(url: URL, verifyingShards: Bool) throws(FeatureFileError) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        self.url = url
        let file = try hdf5 { () throws(HDF5Error) in try HDF5Handle.openFile(path: path) }
        self.file = file
        attributes = try hdf5 { () throws(HDF5Error) in try file.readAttributes() }

        guard try hdf5({ () throws(HDF5Error) in try file.linkExists(FeatureFileLayout.indexGroup) }) else {
            throw .notAFeatureFile(path: path, reason: "no /index group")
        }
        let index = try hdf5 { () throws(HDF5Error) in try file.openGroup(FeatureFileLayout.indexGroup) }
        for name in [FeatureFileLayout.offsetDataset, FeatureFileLayout.numFramesDataset, FeatureFileLayout.clipIDDataset]
        where try !hdf5({ () throws(HDF5Error) in try index.linkExists(name) }) {
            throw .notAFeatureFile(path: path, reason: "no /index/\(name)")
        }
        let (offsets, numFrames, clipIDs, splits, snrs, clipIndices) = try hdf5 { () throws(HDF5Error) in
            let offsets = try index.openDataset(FeatureFileLayout.offsetDataset).readInt64Vector()
            let numFrames = try index.openDataset(FeatureFileLayout.numFramesDataset).readInt64Vector()
            let clipIDs = try index.openDataset(FeatureFileLayout.clipIDDataset).readStrings()
            let splits = try index.linkExists(FeatureFileLayout.splitDataset)
                ? try index.openDataset(FeatureFileLayout.splitDataset).readStrings() : [String](repeating: "", count: clipIDs.count)
            let snrs = try index.linkExists(FeatureFileLayout.snrDBDataset)
                ? try index.openDataset(FeatureFileLayout.snrDBDataset).readDoubleVector()
                : [Double](repeating: .nan, count: clipIDs.count)
            let clipIndices = try index.linkExists(FeatureFileLayout.clipIndexDataset)
                ? try index.openDataset(FeatureFileLayout.clipIndexDataset).readInt64Vector().map { Int($0) } : nil
            return (offsets, numFrames, clipIDs, splits, snrs, clipIndices)
        }
        guard offsets.count == clipIDs.count, numFrames.count == clipIDs.count, splits.count == clipIDs.count,
              snrs.count == clipIDs.count, (clipIndices?.count ?? clipIDs.count) == clipIDs.count else {
            throw .notAFeatureFile(path: path, reason: "/index datasets have different lengths")
        }
        var clips: [FeatureClip] = []
        var positions: [String: Int] = [:]
        for position in clipIDs.indices {
            clips.append(FeatureClip(clipID: clipIDs[position], split: splits[position], offset: Int(offsets[position]),
                                     numFrames: Int(numFrames[position]), snrDB: snrs[position].isNaN ? nil : snrs[position]))
            positions[clipIDs[position]] = position
        }
        self.clips = clips
        self.clipIndices = clipIndices
        clipPositions = positions

        let (streams, datasets) = try hdf5 { () throws(HDF5Error) in try Self.readStreams(file) }
        for clip in clips {
            for stream in streams where clip.offset < 0 || clip.numFrames < 0 || clip.offset + clip.numFrames > stream.totalFrames {
                throw .notAFeatureFile(path: path, reason: "clip '\(clip.clipID)' frames \(clip.offset)..<\(clip.offset + clip.numFrames) "
                    + "outside stream '\(stream.name)' (\(stream.totalFrames) frames)")
            }
        }
        self.streams = streams
        self.datasets = datasets
        if verifyingShards, let problem = try shardMappings().compactMap(\.problemLine).first {
            throw .missingShard(path: path, detail: problem)
        }
    }

    /// The mappings of the merged file's virtual streams onto its shard files, each checked
    /// (``FeatureShardMapping``); empty for an ordinary file.
    public func shardMappings() throws(FeatureFileError) -> [FeatureShardMapping] {
        let (file, datasets, streams, clips, path) = (file, datasets, streams, clips, url.path)
        return try hdf5 { () throws(HDF5Error) in
            try FeatureShardMapping.check(file: file, datasets: datasets, streams: streams, clips: clips, path: path)
        }
    }

    /// The 2-D float datasets at the root of `file`, in name order, with their handles.
    private static func readStreams(_ file: HDF5Handle) throws(HDF5Error) -> ([FeatureStreamInfo], [String: HDF5Handle]) {
        var streams: [FeatureStreamInfo] = []
        var datasets: [String: HDF5Handle] = [:]
        for name in try file.childNames() where try file.childIsDataset(name) {
            let dataset = try file.openDataset(name)
            let shape = try dataset.datasetSpace().dimensions()
            guard shape.count == 2, let size = try dataset.storedFloatSize() else { continue }
            let filters = try dataset.compressionFilters()
            streams.append(FeatureStreamInfo(
                name: name, bins: shape[1], totalFrames: shape[0], bytesPerValue: size,
                chunkFrames: try dataset.chunkDimensions()?.first,
                compression: filters.deflateLevel.map { .gzip(level: $0) } ?? .none,
                shuffle: filters.shuffle))
            datasets[name] = dataset
        }
        return (streams, datasets)
    }

    /// The stream called `name`.
    /// - Throws: ``FeatureFileError/unknownStream(path:stream:)``.
    public func stream(_ name: String) throws(FeatureFileError) -> FeatureStreamInfo {
        guard let stream = streams.first(where: { $0.name == name }) else { throw .unknownStream(path: url.path, stream: name) }
        return stream
    }

    /// The index entry of `clipID`.
    /// - Throws: ``FeatureFileError/clipNotFound(path:clipID:)``.
    public func clip(id clipID: String) throws(FeatureFileError) -> FeatureClip {
        guard let position = clipPositions[clipID] else { throw .clipNotFound(path: url.path, clipID: clipID) }
        return clips[position]
    }

    /// A clip's frames of `stream`, `[numFrames × bins]` row-major.
    public func frames(stream: String, clipID: String) throws(FeatureFileError) -> [Float] {
        try frames(stream: stream, range: try clip(id: clipID).frameRange)
    }

    /// Rows `range` of `stream`, `[range.count × bins]` row-major (HDF5 converts float16/float64 to Float).
    /// - Throws: ``FeatureFileError/unknownStream(path:stream:)``,
    /// ``FeatureFileError/frameRangeOutOfBounds(path:stream:lowerBound:upperBound:totalFrames:)``,
    /// ``FeatureFileError/hdf5(path:call:detail:)``.
    public func frames(stream name: String, range: Range<Int>) throws(FeatureFileError) -> [Float] {
        let info = try stream(name)
        guard range.lowerBound >= 0, range.upperBound <= info.totalFrames else {
            throw .frameRangeOutOfBounds(path: url.path, stream: name, lowerBound: range.lowerBound, upperBound: range.upperBound,
                                         totalFrames: info.totalFrames)
        }
        guard !range.isEmpty else { return [] }
        var values = [Float](repeating: 0, count: range.count * info.bins)
        let dataset = datasets[name]!
        try values.withUnsafeMutableBufferPointer { buffer throws(FeatureFileError) in
            try hdf5 { () throws(HDF5Error) in try dataset.readFloatRows(firstRow: range.lowerBound, rows: range.count, columns: info.bins,
                                                                         into: buffer.baseAddress!) }
        }
        return values
    }

    /// Streams that have statistics under `/stats`.
    public func statisticsStreams() throws(FeatureFileError) -> [String] {
        try hdf5 { () throws(HDF5Error) in
            guard try file.linkExists(FeatureFileLayout.statsGroup) else { return [] }
            return try file.openGroup(FeatureFileLayout.statsGroup).childNames()
        }
    }

    /// The statistics stored for `stream` under `/stats/<stream>`.
    /// - Throws: ``FeatureFileError/statisticsMismatch(path:stream:reason:)`` when there are none,
    ///   ``FeatureFileError/notAFeatureFile(path:reason:)`` when they are malformed.
    public func statistics(stream: String) throws(FeatureFileError) -> StoredStatistics {
        guard try statisticsStreams().contains(stream) else {
            throw .statisticsMismatch(path: url.path, stream: stream, reason: "no statistics stored")
        }
        let (mean, std, attributes) = try hdf5 { () throws(HDF5Error) in
            let group = try file.openGroup(FeatureFileLayout.statsGroup).openGroup(stream)
            return (try group.openDataset("mean").readDoubleVector(), try group.openDataset("std").readDoubleVector(),
                    try group.readAttributes())
        }
        guard mean.count == std.count, let count = attributes["count"]?.intValue else {
            throw .notAFeatureFile(path: url.path, reason: "/stats/\(stream) is malformed")
        }
        return StoredStatistics(stream: stream, mean: mean, standardDeviation: std, count: count,
                                split: attributes["split"]?.stringValue ?? "")
    }
}
