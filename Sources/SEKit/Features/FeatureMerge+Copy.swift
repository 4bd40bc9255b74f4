import Foundation

extension FeatureMerge {
    /// Writes every clip of the shards, in corpus order, into one ordinary file through
    /// ``FeatureFileWriter`` with the shards' streams, dtype, compression, chunking and attributes
    /// (without the shard-only ones), and the statistics the unsharded export computes: one batch
    /// per counted clip, in clip order (``FeatureStatistics/Batch``, whose sums run in frame order
    /// whatever the blocks), so the file is the unsharded export's byte for byte but for the run ids.
    /// Memory holds one block of a clip (the clip's values, when they are at most
    /// ``FeatureExportOptions/streamedClipValues`` a stream).
    static func writeCopy(_ set: FeatureShardSet, to output: URL, overwrite: Bool,
                          progress: @escaping @Sendable (Int, Int) -> Void) throws -> FeatureFileSummary {
        var attributes = mergedAttributes(set)
        let runs = set.runIDs
        for name in FeatureFileLayout.reservedAttributes.union([FeatureFileLayout.corpusMixSHA256Attribute]) { attributes[name] = nil }
        typealias Name = FeatureFileAttributes.Name
        let metadata = FeatureFileMetadata(sampleRate: set.attributes[Name.sampleRate]?.intValue ?? 0,
                                           frameConvention: set.attributes[Name.frameConvention]?.stringValue ?? "",
                                           mixRunID: runs.mix, featuresRunID: runs.features)
        let writer = try FeatureFileWriter(url: output, streams: set.streams, dtype: set.dtype, compression: set.compression,
                                           metadata: metadata, attributes: attributes,
                                           chunkFrames: set.attributes[Name.chunkFrames]?.intValue, overwrite: overwrite)
        var statistics = Dictionary(uniqueKeysWithValues: set.statisticsStreams.map { name in
            (name, FeatureStatistics(bins: set.streams.first { $0.name == name }?.bins ?? 0))
        })
        let clips = set.clipsInCorpusOrder
        do {
            for (done, (position, clip)) in clips.enumerated() {
                let counted = set.statisticsSplit == "all" || clip.split == set.statisticsSplit ? set.statisticsStreams : []
                try copyClip(clip, from: set.members[position].reader, to: writer, statisticsStreams: counted, statistics: &statistics)
                progress(done + 1, clips.count)
            }
            return try writer.finish(statistics: statistics, statisticsSplit: set.statisticsSplit)
        } catch {
            writer.discard()
            throw error
        }
    }

    /// Appends one clip read from its shard a block at a time, with its statistics batch for
    /// `statisticsStreams` (pass 1 as the blocks are written; pass 2 over the same blocks, kept
    /// in memory for a clip of ordinary length, read again for a long one).
    static func copyClip(_ clip: FeatureClip, from reader: FeatureFileReader, to writer: FeatureFileWriter,
                         statisticsStreams: [String], statistics: inout [String: FeatureStatistics]) throws {
        let keepsBlocks = clip.numFrames * (writer.streams.map(\.bins).max() ?? 0) <= FeatureExportOptions().streamedClipValues
        var batches = Dictionary(uniqueKeysWithValues: statisticsStreams.map { name in (name,
                FeatureStatistics.Batch(bins: statistics[name]!.bins)) })
        var kept: [String: [(frames: Range<Int>, values: [Float])]] = [:]
        var failure: Error?
        func rows(_ frames: Range<Int>) -> Range<Int> { (clip.offset + frames.lowerBound)..<(clip.offset + frames.upperBound) }
        try writer.append(clipID: clip.clipID, split: clip.split, snrDB: clip.snrDB, numFrames: clip.numFrames) { stream, frames, out in
            guard failure == nil else { return out.update(repeating: 0) }
            do {
                let values = try reader.frames(stream: stream.name, range: rows(frames))
                _ = out.update(fromContentsOf: values)
                guard batches[stream.name] != nil else { return }
                values.withUnsafeBufferPointer { batches[stream.name]!.addToSums($0) }
                kept[stream.name, default: []].append((frames, keepsBlocks ? values : []))
            } catch {
                failure = error
                out.update(repeating: 0)
            }
        }
        if let failure { throw failure }
        for name in statisticsStreams {
            for (frames, values) in kept[name] ?? [] {
                let block = keepsBlocks ? values : try reader.frames(stream: name, range: rows(frames))
                block.withUnsafeBufferPointer { batches[name]!.addToDeviations($0) }
            }
            statistics[name]!.add(batches[name]!)
        }
    }
}
