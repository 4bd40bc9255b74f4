import Foundation

/// What ``FeatureFileWriter/finish(statistics:statisticsSplit:)`` produced.
public struct FeatureFileSummary: Equatable, Sendable {
    /// The final file.
    public var url: URL
    public var clipCount: Int
    /// Rows of every packed stream.
    public var totalFrames: Int
    /// Size of the file on disk.
    public var fileBytes: Int
}

/// Writes a SEKit feature file (HDF5) clip by clip, with bounded memory.
///
/// Layout (a public contract; see the README section "Feature files (HDF5 layout)"):
/// - `/<stream>`: one packed 2-D dataset `[total_frames, bins]` per stream, extendible along
///   frames, chunked `[FeatureFileLayout.chunkFrames(bins:dtype:), bins]`, `float32` or
///   `float16`, optionally shuffle + gzip. Clip `i` occupies rows `offset[i] ..< offset[i] + num_frames[i]`.
/// - `/index/clip_id`, `/index/split` (variable-length UTF-8 strings), `/index/offset`,
///   `/index/num_frames` (int64), `/index/snr_db` (float64, NaN when unknown), in append order;
///   `/index/clip_index` (int64) only when the caller gives clip indices (a shard's file).
/// - `/stats/<stream>/mean`, `/stats/<stream>/std` (float64 `[bins]`), attributes `count`, `split`.
/// - Root attributes: the caller's (every STFT and feature parameter) plus `format_version`,
///   `sekit_version`, `frame_convention`, `sample_rate`, `mix_run_id`, `features_run_id`,
///   `dtype`, `compression`, `chunk_frames`, `streams`.
///
/// The file is written under a temporary name in the target folder (`AtomicFile.temporaryURL(for:)`) and
/// renamed to its final name only by ``finish(statistics:statisticsSplit:)``; a writer that is
/// dropped, discarded or fails removes the temporary file, so the final name only ever holds a
/// complete file. Each `append` writes its clip straight through HDF5 (whose per-dataset chunk
/// cache holds the partly filled chunk); only the index (a few dozen bytes per clip) stays in
/// memory. No modification times are stored: the same clips give the same bytes.
///
/// Values must be finite (NaN or infinity in training data is a bug upstream, e.g. `log(0)`:
/// floor before writing), and fit float16 when that is the dtype. Bad input throws before
/// anything of the clip is written, and the writer stays usable; an HDF5 failure while writing
/// closes the writer and removes the temporary file.
///
/// Thread safety: calls may come from any thread; they are serialised.
public final class FeatureFileWriter: @unchecked Sendable {
    /// The final file name.
    public let url: URL
    /// Where the file is written until `finish`.
    public let temporaryURL: URL
    public let streams: [StreamSpec]
    public let dtype: FeatureDType
    public let compression: FeatureCompression
    /// Frames per chunk of every stream.
    public let chunkFrames: Int

    private enum State { case open, finished, closed }
    private let overwrite: Bool
    private let lock = NSLock()
    private var state = State.open
    private var file: HDF5Handle?
    private var datasets: [HDF5Handle] = []
    private var halfType: HDF5Handle?
    private var clips: [FeatureClip] = []
    /// The corpus clip index of every clip, when the caller gave them (a shard's `/index/clip_index`).
    private var clipIndices: [Int] = []
    private var clipIDs: Set<String> = []
    private var framesWritten = 0
    private var halfScratch: [UInt16] = []

    /// Creates the temporary file with its streams and root attributes.
    ///
    /// - Parameters:
    ///   - url: Final file name; its folder must exist.
    ///   - streams: Packed streams, unique names without `/` (not `index` or `stats`), bins > 0.
    ///   - dtype: Stored value type.
    ///   - compression: `.none` or `.gzip(level:)` with shuffle.
    ///   - metadata: Sample rate, frame convention and run ids (root attributes).
    ///   - attributes: Every STFT and feature parameter, as root attributes; names must not be
    ///     in ``FeatureFileLayout/reservedAttributes``.
    ///   - chunkFrames: Frames per chunk; default ``FeatureFileLayout/chunkFrames(bins:dtype:)`` of the widest stream.
    ///   - overwrite: Replace an existing file at `url` (on `finish`); otherwise an existing file is refused.
    /// - Throws: ``FeatureFileError/outputExists(path:)``, ``FeatureFileError/invalidParameter(name:value:reason:)``,
    ///   ``FeatureFileError/fileSystem(path:operation:reason:)`` (missing folder), ``FeatureFileError/hdf5(path:call:detail:)``.
    public init(url: URL, streams: [StreamSpec], dtype: FeatureDType = .float32, compression: FeatureCompression = .none,
                metadata: FeatureFileMetadata, attributes: [String: AttributeValue] = [:], chunkFrames: Int? = nil,
                overwrite: Bool = false) throws(FeatureFileError) {
        try Self.validate(streams: streams, compression: compression, attributes: attributes, chunkFrames: chunkFrames)
        let folder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .fileSystem(path: folder.path, operation: "create feature file", reason: "folder does not exist")
        }
        if !overwrite, FileManager.default.fileExists(atPath: url.path) { throw .outputExists(path: url.path) }
        self.url = url
        temporaryURL = AtomicFile.temporaryURL(for: url)
        self.streams = streams
        self.dtype = dtype
        self.compression = compression
        self.overwrite = overwrite
        let widest = streams.map(\.bins).max() ?? 1
        self.chunkFrames = chunkFrames ?? FeatureFileLayout.chunkFrames(bins: widest, dtype: dtype)
        do {
            try create(metadata: metadata, attributes: attributes)
        } catch {
            close(removingTemporary: true)
            throw FeatureFileError(error)
        }
    }

    deinit {
        if state != .finished { close(removingTemporary: true) }
    }

    /// Clips appended so far.
    public var clipCount: Int { lock.withLock { clips.count } }
    /// Rows of every stream so far.
    public var totalFrames: Int { lock.withLock { framesWritten } }

    private static func validate(streams: [StreamSpec], compression: FeatureCompression, attributes: [String: AttributeValue],
                                 chunkFrames: Int?) throws(FeatureFileError) {
        guard !streams.isEmpty else { throw .invalidParameter(name: "streams", value: "[]", reason: "at least one stream is needed") }
        var seen: Set<String> = []
        for stream in streams {
            guard !stream.name.isEmpty, !stream.name.contains("/"), !stream.name.hasPrefix("."),
                  stream.name != FeatureFileLayout.indexGroup, stream.name != FeatureFileLayout.statsGroup else {
                throw .invalidParameter(name: "stream name", value: "'\(stream.name)'",
                                        reason: "must be non-empty, without '/', not 'index' or 'stats'")
            }
            guard seen.insert(stream.name).inserted else {
                throw .invalidParameter(name: "stream name", value: stream.name, reason: "given twice")
            }
            guard stream.bins > 0 else {
                throw .invalidParameter(name: "bins of \(stream.name)", value: String(stream.bins), reason: "must be positive")
            }
        }
        if case .gzip(let level) = compression, !(1...9).contains(level) {
            throw .invalidParameter(name: "compression", value: compression.description, reason: "gzip level must be 1...9")
        }
        if let chunkFrames, chunkFrames < 1 {
            throw .invalidParameter(name: "chunkFrames", value: String(chunkFrames), reason: "must be positive")
        }
        for name in attributes.keys.sorted() where name.isEmpty || FeatureFileLayout.reservedAttributes.contains(name) {
            throw .invalidParameter(name: "attribute", value: "'\(name)'", reason: "empty or reserved for the writer")
        }
    }

    private func create(metadata: FeatureFileMetadata, attributes: [String: AttributeValue]) throws(HDF5Error) {
        let file = try HDF5Handle.createFile(path: temporaryURL.path)
        self.file = file
        var all = attributes
        all[FeatureFileAttributes.Name.formatVersion] = .int(FeatureFileLayout.formatVersion)
        all[FeatureFileAttributes.Name.sekitVersion] = .string(SEKitVersion.string)
        all[FeatureFileAttributes.Name.frameConvention] = .string(metadata.frameConvention)
        all[FeatureFileAttributes.Name.sampleRate] = .int(metadata.sampleRate)
        all[FeatureFileAttributes.Name.mixRunID] = .string(metadata.mixRunID)
        all[FeatureFileAttributes.Name.featuresRunID] = .string(metadata.featuresRunID)
        all[FeatureFileAttributes.Name.dtype] = .string(dtype.rawValue)
        all[FeatureFileAttributes.Name.compression] = .string(compression.description)
        all[FeatureFileAttributes.Name.chunkFrames] = .int(chunkFrames)
        all[FeatureFileAttributes.Name.streams] = .string(streams.map(\.name).joined(separator: ","))
        for name in all.keys.sorted() { try file.writeAttribute(name, all[name]!) }

        let fileType: Int64
        if dtype == .float16 {
            let half = try HDF5Handle.float16Type(path: temporaryURL.path)
            halfType = half
            fileType = half.id
        } else {
            fileType = HDF5Handle.float32FileType
        }
        let level: Int? = if case .gzip(let level) = compression { level } else { nil }
        for stream in streams {
            let chunkBytes = chunkFrames * stream.bins * dtype.bytesPerValue
            datasets.append(try file.createExtendibleMatrix(
                stream.name, columns: stream.bins, type: fileType, chunkRows: chunkFrames, deflateLevel: level,
                cacheBytes: max(4 * chunkBytes, 1 << 20)))
        }
    }

    /// Closes every handle; removes the temporary file if asked. Idempotent.
    private func close(removingTemporary: Bool) {
        datasets = []
        halfType = nil
        file = nil
        if state == .open { state = .closed }
        if removingTemporary { unlink(temporaryURL.path) }
    }

    /// Removes the temporary file and closes the writer without producing anything.
    public func discard() {
        lock.withLock { if state != .finished { close(removingTemporary: true) } }
    }

    // MARK: Appending

    /// Appends one clip to every stream.
    ///
    /// - Parameters:
    ///   - clipID: Unique, non-empty.
    ///   - split: `train`, `valid`, `test`, ...
    ///   - snrDB: Mixing SNR, dB; nil when unknown (stored as NaN).
    ///   - clipIndex: The clip's index in its corpus (`/index/clip_index`, written by shards);
    ///     given for every clip of the file or for none.
    ///   - frames: For every stream of the file, exactly, its frames `[numFrames × bins]`
    ///     row-major; all streams have the same `numFrames` > 0.
    /// - Throws: ``FeatureFileError/unknownStream(path:stream:)``, ``FeatureFileError/missingStream(path:stream:clipID:)``,
    ///   ``FeatureFileError/shapeMismatch(path:stream:clipID:values:bins:)``,
    ///   ``FeatureFileError/frameCountMismatch(path:clipID:stream:expectedFrames:frames:)``,
    ///   ``FeatureFileError/emptyClip(path:clipID:)``, ``FeatureFileError/duplicateClip(path:clipID:)``,
    ///   ``FeatureFileError/nonFiniteValue(path:stream:clipID:frame:bin:)``,
    ///   ``FeatureFileError/float16Overflow(path:stream:clipID:frame:bin:value:)`` (nothing written; the writer stays usable);
    ///   ``FeatureFileError/writerClosed(path:)``, ``FeatureFileError/hdf5(path:call:detail:)`` (the writer is closed).
    public func append(clipID: String, split: String, snrDB: Double?, clipIndex: Int? = nil,
                       frames: [String: UnsafeBufferPointer<Float>]) throws(FeatureFileError) {
        lock.lock()
        defer { lock.unlock() }
        guard state == .open else { throw .writerClosed(path: url.path) }
        try checkClipIndex(clipIndex)
        let numFrames = try validate(clipID: clipID, split: split, frames: frames)
        for stream in streams { try checkValues(frames[stream.name]!, stream: stream, clipID: clipID) }
        let first = framesWritten
        do {
            for (stream, dataset) in zip(streams, datasets) {
                try dataset.setExtent([first + numFrames, stream.bins])
                try write(frames[stream.name]!, stream: stream, dataset: dataset, firstRow: first, rows: numFrames)
            }
        } catch {
            close(removingTemporary: true)
            throw FeatureFileError(error)
        }
        framesWritten += numFrames
        clips.append(FeatureClip(clipID: clipID, split: split, offset: first, numFrames: numFrames, snrDB: snrDB))
        if let clipIndex { clipIndices.append(clipIndex) }
        clipIDs.insert(clipID)
    }

    /// Rows a block of `append(clipID:split:snrDB:numFrames:blockFrames:fill:)` holds by default.
    public static let blockRows = 8192

    /// Appends one clip whose frames are made a block at a time, so that a long clip never has a
    /// whole stream in memory: for each stream in file order, `fill(stream, frames, values)` writes
    /// the clip's rows `frames` (`frames.count × bins` row-major) into `values`, blocks in order;
    /// blocks end on chunk boundaries and hold at most `blockFrames` rows (rounded down to whole
    /// chunks, at least one). The file holds the same bytes as
    /// `append(clipID:split:snrDB:frames:)-(_,_,_,[String:UnsafeBufferPointer<Float>])` given
    /// the whole clip: the same HDF5 calls per stream, the same chunks in the same order.
    ///
    /// - Throws: as that `append`. The clip id and frame count are checked before anything is
    ///   written; a bad value in a block (non-finite, beyond float16) is found when its block is
    ///   made, after earlier blocks are written, so it closes the writer and removes the file.
    public func append(clipID: String, split: String, snrDB: Double?, clipIndex: Int? = nil, numFrames: Int, blockFrames: Int = blockRows,
                       fill: (_ stream: StreamSpec, _ frames: Range<Int>,
                              _ values: UnsafeMutableBufferPointer<Float>) -> Void) throws(FeatureFileError) {
        lock.lock()
        defer { lock.unlock() }
        guard state == .open else { throw .writerClosed(path: url.path) }
        try checkClipIndex(clipIndex)
        guard !clipID.isEmpty else { throw .invalidParameter(name: "clipID", value: "''", reason: "must not be empty") }
        guard !clipIDs.contains(clipID) else { throw .duplicateClip(path: url.path, clipID: clipID) }
        guard numFrames > 0 else { throw .emptyClip(path: url.path, clipID: clipID) }
        let first = framesWritten, end = first + numFrames
        let blockRows = max(1, blockFrames / chunkFrames) * chunkFrames
        var block = [Float](repeating: 0, count: min(numFrames, blockRows) * (streams.map(\.bins).max() ?? 0))
        do throws(FeatureFileError) {
            try block.withUnsafeMutableBufferPointer { block throws(FeatureFileError) in
                for (stream, dataset) in zip(streams, datasets) {
                    try hdf5 { () throws(HDF5Error) in try dataset.setExtent([end, stream.bins]) }
                    var row = first
                    while row < end {
                        let next = min(end, (row / blockRows + 1) * blockRows)
                        let values = UnsafeMutableBufferPointer(rebasing: block[0..<((next - row) * stream.bins)])
                        fill(stream, (row - first)..<(next - first), values)
                        try checkValues(UnsafeBufferPointer(values), stream: stream, clipID: clipID, firstFrame: row - first)
                        try hdf5 { () throws(HDF5Error) in
                            try write(UnsafeBufferPointer(values), stream: stream, dataset: dataset, firstRow: row, rows: next - row)
                        }
                        row = next
                    }
                }
            }
        } catch {
            close(removingTemporary: true)
            throw error
        }
        framesWritten = end
        clips.append(FeatureClip(clipID: clipID, split: split, offset: first, numFrames: numFrames, snrDB: snrDB))
        if let clipIndex { clipIndices.append(clipIndex) }
        clipIDs.insert(clipID)
    }

    /// Appends one clip to every stream; `frames` as arrays (see
    /// `append(clipID:split:snrDB:frames:)-(_,_,_,[String:UnsafeBufferPointer<Float>])`).
    public func append(clipID: String, split: String, snrDB: Double?, clipIndex: Int? = nil,
                       frames: [String: [Float]]) throws(FeatureFileError) {
        try Self.withBuffers(Array(frames), collected: [:]) { buffers throws(FeatureFileError) in
            try append(clipID: clipID, split: split, snrDB: snrDB, clipIndex: clipIndex, frames: buffers)
        }
    }

    /// A clip index is given for every clip or for none (``FeatureFileLayout/clipIndexDataset``).
    private func checkClipIndex(_ clipIndex: Int?) throws(FeatureFileError) {
        guard clips.isEmpty || (clipIndex != nil ? clipIndices.count == clips.count : clipIndices.isEmpty) else {
            throw .invalidParameter(name: "clipIndex", value: clipIndex.map(String.init) ?? "nil",
                                    reason: "give a clip index for every clip of a file or for none")
        }
    }

    private static func withBuffers(_ remaining: [(key: String, value: [Float])], collected: [String: UnsafeBufferPointer<Float>],
                                     _ body: ([String: UnsafeBufferPointer<Float>]) throws(FeatureFileError) -> Void)
        throws(FeatureFileError) {
        guard let (name, values) = remaining.last else { return try body(collected) }
        try values.withUnsafeBufferPointer { buffer throws(FeatureFileError) in
            var collected = collected
            collected[name] = buffer
            try withBuffers(remaining.dropLast(), collected: collected, body)
        }
    }

    /// Checks names, shapes and the clip id; returns the clip's frame count.
    private func validate(clipID: String, split: String, frames: [String: UnsafeBufferPointer<Float>]) throws(FeatureFileError) -> Int {
        let path = url.path
        guard !clipID.isEmpty else { throw .invalidParameter(name: "clipID", value: "''", reason: "must not be empty") }
        guard !clipIDs.contains(clipID) else { throw .duplicateClip(path: path, clipID: clipID) }
        let known = Set(streams.map(\.name))
        if let extra = frames.keys.sorted().first(where: { !known.contains($0) }) { throw .unknownStream(path: path, stream: extra) }
        var numFrames: Int?
        for stream in streams {
            guard let buffer = frames[stream.name] else { throw .missingStream(path: path, stream: stream.name, clipID: clipID) }
            guard buffer.count % stream.bins == 0 else {
                throw .shapeMismatch(path: path, stream: stream.name, clipID: clipID, values: buffer.count, bins: stream.bins)
            }
            let count = buffer.count / stream.bins
            if let expected = numFrames, expected != count {
                throw .frameCountMismatch(path: path, clipID: clipID, stream: stream.name, expectedFrames: expected, frames: count)
            }
            numFrames = count
        }
        guard let numFrames, numFrames > 0 else { throw .emptyClip(path: path, clipID: clipID) }
        return numFrames
    }

    /// Throws at the first NaN/infinite value, or (float16) the first value beyond ±65504.
    /// `firstFrame`: the clip's frame `values` start at (for the message).
    private func checkValues(_ values: UnsafeBufferPointer<Float>, stream: StreamSpec, clipID: String,
                             firstFrame: Int = 0) throws(FeatureFileError) {
        // A float is NaN or infinite exactly when its exponent bits are all ones: |bits| >= 0x7f800000.
        // float16's largest finite value is 65504; anything that rounds beyond it is refused.
        let limit: UInt32 = dtype == .float16 ? Float(65519.996).bitPattern : 0x7F7F_FFFF
        var largest: UInt32 = 0
        for value in values { largest = max(largest, value.bitPattern & 0x7FFF_FFFF) }
        guard largest > limit else { return }
        let index = values.firstIndex { ($0.bitPattern & 0x7FFF_FFFF) > limit }!
        let frame = firstFrame + index / stream.bins, bin = index % stream.bins
        if values[index].isFinite {
            throw .float16Overflow(path: url.path, stream: stream.name, clipID: clipID, frame: frame, bin: bin, value: values[index])
        }
        throw .nonFiniteValue(path: url.path, stream: stream.name, clipID: clipID, frame: frame, bin: bin)
    }

    /// Writes `rows` rows from `firstRow` on (within the dataset's extent).
    private func write(_ values: UnsafeBufferPointer<Float>, stream: StreamSpec, dataset: HDF5Handle, firstRow: Int,
                       rows: Int) throws(HDF5Error) {
        guard let base = values.baseAddress else { return }
        if dtype == .float32 {
            try dataset.writeFloatRows(firstRow: firstRow, rows: rows, columns: stream.bins, buffer: base)
            return
        }
        // float16: round to nearest even in Swift (IEEE conversion), then write the bits as they are.
        if halfScratch.count < values.count { halfScratch = [UInt16](repeating: 0, count: values.count) }
        halfScratch.withUnsafeMutableBufferPointer { half in
            for index in values.indices { half[index] = Float16(values[index]).bitPattern }
        }
        let halfID = halfType!.id
        try halfScratch.withUnsafeBufferPointer { half throws(HDF5Error) in
            try dataset.writeRows(firstRow: firstRow, rows: rows, columns: stream.bins, memoryType: halfID, buffer: half.baseAddress!)
        }
    }

    // MARK: Finishing

    /// Writes the index and the statistics, closes the file and renames it to its final name.
    ///
    /// - Parameters:
    ///   - statistics: Per-stream statistics (e.g. over the training split) to store under `/stats/<stream>`.
    ///   - statisticsSplit: The split the statistics describe (`/stats/<stream>` attribute `split`).
    /// - Returns: The final file, clip count, frames and size.
    /// - Throws: ``FeatureFileError/noClips(path:)`` (nothing was appended; the temporary file is removed),
    ///   ``FeatureFileError/unknownStream(path:stream:)`` / ``FeatureFileError/statisticsMismatch(path:stream:reason:)``
    ///   (statistics that do not fit; the writer stays usable), ``FeatureFileError/outputExists(path:)``
    ///   (a file appeared under the final name and `overwrite` is off), ``FeatureFileError/writerClosed(path:)``,
    ///   ``FeatureFileError/hdf5(path:call:detail:)``, ``FeatureFileError/fileSystem(path:operation:reason:)``.
    @discardableResult
    public func finish(statistics: [String: FeatureStatistics] = [:],
                       statisticsSplit: String = "train") throws(FeatureFileError) -> FeatureFileSummary {
        do { return try finish(statistics: statistics, statisticsSplit: statisticsSplit, beforeRename: { _ in }) } catch {
            throw error as! FeatureFileError  // the no-op callback throws nothing else
        }
    }

    /// ``finish(statistics:statisticsSplit:)`` that calls `beforeRename` with the complete,
    /// synced temporary file just before it takes its final name (to record it while a kill can
    /// still only leave the temporary file behind). An error from `beforeRename` removes the
    /// temporary file and is rethrown. `emptyStatisticsAllowed`: store statistics of no frames
    /// (count 0, zero mean and std) instead of refusing them: a shard may hold no clip of the
    /// statistics' split.
    @discardableResult
    public func finish(statistics: [String: FeatureStatistics] = [:], statisticsSplit: String = "train",
                       emptyStatisticsAllowed: Bool = false, beforeRename: (URL) throws -> Void) throws -> FeatureFileSummary {
        lock.lock()
        defer { lock.unlock() }
        guard state == .open, let file else { throw FeatureFileError.writerClosed(path: url.path) }
        guard !clips.isEmpty else {
            close(removingTemporary: true)
            throw FeatureFileError.noClips(path: url.path)
        }
        for name in statistics.keys.sorted() {
            guard let stream = streams.first(where: { $0.name == name }) else { throw FeatureFileError.unknownStream(path: url.path,
                                                                                                                     stream: name) }
            let stats = statistics[name]!
            guard stats.bins == stream.bins else {
                throw FeatureFileError.statisticsMismatch(path: url.path, stream: name,
                                                          reason: "\(stats.bins) bins, stream has \(stream.bins)")
            }
            guard stats.count > 0 || emptyStatisticsAllowed else {
                throw FeatureFileError.statisticsMismatch(path: url.path, stream: name,
                                                          reason: "no frames were accumulated (split '\(statisticsSplit)')")
            }
        }
        do {
            try hdf5 { () throws(HDF5Error) in
                try Self.writeIndex(clips, clipIndices: clipIndices.isEmpty ? nil : clipIndices, to: file)
                try Self.writeStatistics(statistics, split: statisticsSplit, to: file)
                datasets = []
                halfType = nil
                try file.flush()
                try file.close()
            }
            self.file = nil
            try Self.sync(temporaryURL)
            if !overwrite, FileManager.default.fileExists(atPath: url.path) { throw FeatureFileError.outputExists(path: url.path) }
            try beforeRename(temporaryURL)
            guard rename(temporaryURL.path, url.path) == 0 else {
                throw FeatureFileError.fileSystem(path: url.path, operation: "rename from \(temporaryURL.lastPathComponent)",
                                                  reason: String(cString: strerror(errno)))
            }
        } catch {
            close(removingTemporary: true)
            throw error
        }
        state = .finished
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
        return FeatureFileSummary(url: url, clipCount: clips.count, totalFrames: framesWritten, fileBytes: bytes ?? 0)
    }

    /// Writes the `/index` group of `clips` (and `/index/clip_index` when `clipIndices` are given) into `file`.
    static func writeIndex(_ clips: [FeatureClip], clipIndices: [Int]?, to file: HDF5Handle) throws(HDF5Error) {
        let index = try file.createGroup(FeatureFileLayout.indexGroup)
        try index.writeStrings(FeatureFileLayout.clipIDDataset, clips.map(\.clipID))
        try index.writeInt64Vector(FeatureFileLayout.offsetDataset, clips.map { Int64($0.offset) })
        try index.writeInt64Vector(FeatureFileLayout.numFramesDataset, clips.map { Int64($0.numFrames) })
        try index.writeDoubleVector(FeatureFileLayout.snrDBDataset, clips.map { $0.snrDB ?? .nan })
        try index.writeStrings(FeatureFileLayout.splitDataset, clips.map(\.split))
        if let clipIndices { try index.writeInt64Vector(FeatureFileLayout.clipIndexDataset, clipIndices.map { Int64($0) }) }
    }

    /// Writes `/stats/<stream>/{mean,std}` with attributes `count` and `split` into `file`, streams in name order.
    static func writeStatistics(_ statistics: [String: FeatureStatistics], split: String, to file: HDF5Handle) throws(HDF5Error) {
        guard !statistics.isEmpty else { return }
        let group = try file.createGroup(FeatureFileLayout.statsGroup)
        for name in statistics.keys.sorted() {
            let stats = statistics[name]!
            let streamGroup = try group.createGroup(name)
            try streamGroup.writeDoubleVector("mean", stats.mean)
            try streamGroup.writeDoubleVector("std", stats.standardDeviation)
            try streamGroup.writeAttribute("count", .int(stats.count))
            try streamGroup.writeAttribute("split", .string(split))
        }
    }

    /// Flushes a closed temporary file to disk (`fsync`) so the rename never exposes a file whose data is still in flight.
    static func sync(_ temporaryURL: URL) throws(FeatureFileError) {
        let descriptor = open(temporaryURL.path, O_RDONLY)
        guard descriptor >= 0 else {
            throw .fileSystem(path: temporaryURL.path, operation: "open for fsync", reason: String(cString: strerror(errno)))
        }
        defer { _ = Foundation.close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw .fileSystem(path: temporaryURL.path, operation: "fsync", reason: String(cString: strerror(errno)))
        }
    }
}
