import Foundation

/// Joins the shard files of one sharded export (`sekit features --shard i/N`) into one feature
/// file (`sekit features merge`).
///
/// - ``Mode/virtual`` (default): the streams are HDF5 virtual datasets over the shards' files (no
///   frame is copied): rows are shard 1's frames, then shard 2's, ...; the index is the shards'
///   in that order with offsets into the joined rows; `/stats/STREAM` combines the shards' counts,
///   means and standard deviations (Chan et al.'s pairwise update in float64, shards in order);
///   root attributes are the shards', without `shard`, with `shards` = N and `merged` = `virtual`.
///   Shards are named relative to the output's folder (see ``sourceName(of:fromFolder:)``).
/// - ``Mode/copy``: one ordinary file, byte for byte the unsharded export of the same corpus with
///   the same options except for the run ids: clips in corpus order, written by
///   ``FeatureFileWriter``, statistics recomputed by the export's own streaming code.
///
/// In both, `features_run_id` is `RunID.folding(_:)` over the shards' (the id `sekit catalog
/// merge` gives their folded run), and `mix_run_id` is the shards' when they agree, else the
/// folding of the distinct ones. The output is written under a temporary name and renamed when
/// complete; mismatched shards (``FeatureFileError``) leave nothing behind.
public enum FeatureMerge {
    public enum Mode: String, Sendable, CaseIterable {
        /// Virtual datasets over the shards' files.
        case virtual
        /// A copy of every frame into one ordinary file.
        case copy
    }

    public struct Options: Sendable {
        public var mode: Mode = .virtual
        /// Replace an existing output.
        public var overwrite = false
        public init() {}
    }

    public struct Result: Sendable {
        public var summary: FeatureFileSummary
        /// Shards joined.
        public var shards: Int
        public var mode: Mode
    }

    /// Merges `shards` (any order) into `output`.
    /// - Parameter progress: called with (clips done, clips in total) (``Mode/copy`` only).
    /// - Throws: ``FeatureFileError/outputExists(path:)`` (without `overwrite`), ``FeatureFileError``
    ///   for shards that do not belong together, ``FeatureFileError`` for HDF5 and file-system failures.
    public static func run(output: URL, shards: [URL], options: Options,
                           progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> Result {
        let lock = try OutputLock(output: output.path, lockFile: OutputLock.lockFile(besideFile: output))
        defer { withExtendedLifetime(lock) {} }
        AtomicFile.removeStaleTemporaries(in: output.deletingLastPathComponent(), named: output.lastPathComponent)
        if !options.overwrite,
                FileManager.default.fileExists(atPath: output.path) { throw FeatureFileError.outputExists(path: output.path) }
        let resolvedOutput = FilePaths.resolved(output.path)
        if shards.contains(where: { FilePaths.resolved($0.path) == resolvedOutput }) {
            throw FeatureFileError.outputIsAShard(path: output.path)
        }
        let set = try FeatureShardSet(shards)
        let summary = switch options.mode {
        case .virtual: try writeVirtual(set, to: output, overwrite: options.overwrite)
        case .copy: try writeCopy(set, to: output, overwrite: options.overwrite, progress: progress)
        }
        return Result(summary: summary, shards: set.count, mode: options.mode)
    }

    /// How a virtual dataset names a shard: relative to the output's folder (with `..` when the
    /// shard lies elsewhere), so the output and its shards can move together; absolute when the
    /// two share nothing but `/`. Both paths are resolved (symbolic links followed) first.
    static func sourceName(of shard: URL, fromFolder folder: URL) -> String {
        let target = FilePaths.resolved(shard.path).split(separator: "/"), base = FilePaths.resolved(folder.path).split(separator: "/")
        let common = zip(target, base).prefix { $0 == $1 }.count
        guard common > 0 else { return "/" + target.joined(separator: "/") }
        return (Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)).joined(separator: "/")
    }

    /// The shards' root attributes for the merged file: without `shard`, with the folded run ids.
    static func mergedAttributes(_ set: FeatureShardSet) -> [String: AttributeValue] {
        var attributes = set.attributes
        attributes[FeatureFileLayout.shardAttribute] = nil
        let runs = set.runIDs
        attributes[FeatureFileAttributes.Name.mixRunID] = .string(runs.mix)
        attributes[FeatureFileAttributes.Name.featuresRunID] = .string(runs.features)
        return attributes
    }

    /// Writes the virtual file: root attributes, one virtual dataset per stream (one mapping per
    /// shard), the joined index and the combined statistics. O(streams × shards + clips).
    static func writeVirtual(_ set: FeatureShardSet, to output: URL, overwrite: Bool) throws -> FeatureFileSummary {
        let folder = output.deletingLastPathComponent()
        let temporary = AtomicFile.temporaryURL(for: output)
        var attributes = mergedAttributes(set)
        attributes[FeatureFileLayout.shardsAttribute] = .int(set.count)
        attributes[FeatureFileLayout.mergedAttribute] = .string(FeatureFileLayout.mergedVirtual)
        var clips: [FeatureClip] = [], clipIndices: [Int] = [], firstRows: [Int] = []
        for member in set.members {
            let first = clips.last.map { $0.offset + $0.numFrames } ?? 0
            firstRows.append(first)
            clips += member.reader.clips.map { clip in
                var moved = clip
                moved.offset += first
                return moved
            }
            clipIndices += member.clipIndices
        }
        let statistics = try combinedStatistics(set)
        do {
            try hdf5 { () throws(HDF5Error) in
                let file = try HDF5Handle.createFile(path: temporary.path)
                for name in attributes.keys.sorted() { try file.writeAttribute(name, attributes[name]!) }
                let half = set.dtype == .float16 ? try HDF5Handle.float16Type(path: temporary.path) : nil
                for stream in set.streams {
                    var sources: [HDF5Handle.VirtualRows] = []
                    for (member, first) in zip(set.members, firstRows) {
                        let rows = member.reader.streams.first { $0.name == stream.name }?.totalFrames ?? 0
                        sources.append(.init(file: sourceName(of: member.url, fromFolder: folder), dataset: "/" + stream.name,
                                             firstRow: first, rows: rows))
                    }
                    let rows = sources.last.map { $0.firstRow + $0.rows } ?? 0
                    _ = try file.createVirtualMatrix(stream.name, rows: rows, columns: stream.bins,
                                                     type: half?.id ?? HDF5Handle.float32FileType, sources: sources)
                }
                try FeatureFileWriter.writeIndex(clips, clipIndices: clipIndices, to: file)
                try FeatureFileWriter.writeStatistics(statistics, split: set.statisticsSplit, to: file)
                try file.flush()
                try file.close()
            }
            try FeatureFileWriter.sync(temporary)
            if !overwrite, FileManager.default.fileExists(atPath: output.path) { throw FeatureFileError.outputExists(path: output.path) }
            guard rename(temporary.path, output.path) == 0 else {
                throw FeatureFileError.fileSystem(path: output.path, operation: "rename from \(temporary.lastPathComponent)",
                                                  reason: String(cString: strerror(errno)))
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output.path))?[.size] as? Int
        let totalFrames = clips.last.map { $0.offset + $0.numFrames } ?? 0
        return FeatureFileSummary(url: output, clipCount: clips.count, totalFrames: totalFrames, fileBytes: bytes ?? 0)
    }

    /// Each statistics stream's shards' statistics combined in shard order (Chan et al.).
    static func combinedStatistics(_ set: FeatureShardSet) throws -> [String: FeatureStatistics] {
        var combined: [String: FeatureStatistics] = [:]
        for name in set.statisticsStreams {
            var total: FeatureStatistics?
            for member in set.members {
                let stored = try member.reader.statistics(stream: name)
                let shard = FeatureStatistics(count: stored.count, mean: stored.mean, standardDeviation: stored.standardDeviation)
                if total == nil { total = FeatureStatistics(bins: shard.bins) }
                try total!.merge(shard)
            }
            combined[name] = total
        }
        return combined
    }
}
