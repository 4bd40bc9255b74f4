import Foundation

/// Options of `sekit features`.
public struct FeatureExportOptions: Sendable {
    /// STFT: 512-point FFT, 512-sample (32 ms at 16 kHz) periodic Hann window, hop 256 (50%
    /// overlap), centred with zero padding of n_fft/2 on both sides (librosa ≥ 0.10's default).
    public var stft = STFTConfiguration(fftSize: 512, winLength: 512, hopLength: 256, window: .hann, center: true)
    /// A framing preset that sets `stft` from the corpus's sample rate (``FeaturesJob`` resolves
    /// it; nil: `stft` as given).
    public var framing: FeatureFraming?
    public var feature: FeatureKind = .magnitude
    /// Exponent of `compressed`.
    public var exponent: Double = 0.3
    public var targets: [FeatureTarget] = [.clean]
    /// Local criterion of `ibm`, dB.
    public var lcDB: Double = 0
    public var dtype: FeatureDType = .float32
    public var compression: FeatureCompression = .none
    /// Export only clips of this split.
    public var split: String? = nil
    /// Export only clips at this sample rate, Hz (`--sample-rate`: one file per rate of a corpus mixed
    /// with `--sample-rate native`); nil: every clip, which must then share one rate.
    public var sampleRate: Int? = nil
    /// Split the normalisation statistics are computed over (all clips when it has none).
    public var statisticsSplit = "train"
    /// Store another feature file's statistics instead of computing them (`--stats-from`): a test
    /// export normalised as the training export is. Its STFT and feature attributes must be this
    /// export's; the file's `/stats` then describe the source's split.
    public var statisticsFrom: URL?
    public var overwrite = false
    public var jobs = 1
    /// Export a corpus whose mix did not finish (fewer clips than planned) instead of refusing it.
    public var allowIncomplete = false
    /// Export only this shard's clips (clip index `k` with `k mod N = i − 1`, `Shard.contains(_:)`),
    /// in manifest order, with the shard's own statistics; the file records the shard
    /// (``FeatureFileLayout/shardAttribute``) and the clips' corpus indices, for `sekit features merge`.
    public var shard: Shard = .whole

    /// Clips whose streams would each hold more values than this (4.4 minutes of 16 kHz audio
    /// with the default STFT: 16 MB a stream as float32) are exported a block of frames at a time;
    /// internal, so that tests can stream every clip and compare the files.
    var streamedClipValues = 1 << 22
    /// Frames a block of such a clip holds at most (rounded down to whole chunks).
    var streamedBlockFrames = FeatureFileWriter.blockRows

    public init() {}

    /// Stream names in file order: `noisy`, then the targets.
    public var streamNames: [String] { ["noisy"] + targets.map(\.rawValue) }
}

/// What an export wrote.
public struct FeatureExportResult: Sendable {
    public var summary: FeatureFileSummary
    /// The split the statistics describe (`train`, or `all`).
    public var statisticsSplit: String
    public var clips: Int { summary.clipCount }
    /// Clips the corpus's mix planned but did not make (exported only with `allowIncomplete`).
    public var missingClips = 0
    /// The STFT the features were computed with (a framing preset's, resolved at the corpus's rate).
    public var stft: STFTConfiguration
}

/// Exports a mixed corpus's clips as packed STFT feature streams into one HDF5 file.
///
/// Clips are read and transformed in parallel batches (`jobs` threads) and appended by one
/// writer in manifest order, so memory holds one batch and the file's bytes do not depend on
/// `jobs`. The file is written under a temporary name and renamed when complete.
public enum FeatureExport {
    /// Exports the corpus at `corpus` (its `manifest.jsonl`) to `output`.
    /// - Parameters:
    ///   - mixRunID, featuresRunID: provenance for the root attributes (empty when unknown).
    ///   - progress: called with (clips done, clips in total).
    ///   - beforeCommit: called with the complete temporary file just before it is renamed to `output`.
    /// - Throws: ``FeatureFileError`` (no clips, unreadable or mismatched files),
    ///   ``FeatureFileError`` (an existing output without `overwrite`, HDF5 failures).
    public static func run(corpus: URL, output: URL, options: FeatureExportOptions, mixRunID: String = "",
                           featuresRunID: String = "", progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
                           beforeCommit: (URL) throws -> Void = { _ in }) throws -> FeatureExportResult {
        try options.stft.validate()
        guard options.feature != .compressed || (options.exponent > 0 && options.exponent.isFinite) else {
            throw FeatureFileError.invalidParameter(name: "exponent", value: "\(options.exponent)", reason: "must be > 0")
        }
        guard options.lcDB.isFinite else {
            throw FeatureFileError.invalidParameter(name: "lc-db", value: "\(options.lcDB)", reason: "must be a finite number of dB")
        }
        let manifests = MixManifestRecord.files(inCorpus: corpus)
        guard !manifests.isEmpty else {
            throw FeatureFileError.nothingToExport(corpus: corpus.path, reason: "no manifest.jsonl (is it a folder made by sekit mix?)")
        }
        var (records, missingClips) = try MixManifestRecord.corpusRecords(corpus, allowIncomplete: options.allowIncomplete)
        let stems = try MixCorpusAudio(corpus: corpus)
        let all = records
        if let split = options.split { records = records.filter { $0.split == split } }
        if !records.isEmpty { records = try FeatureRates.select(records, rate: options.sampleRate, corpus: corpus) }
        guard !records.isEmpty else {
            let reason = options.split == nil ? "the manifest is empty" : MixManifestRecord.noClipsReason(split: options.split, in: all)
            throw FeatureFileError.nothingToExport(corpus: corpus.path, reason: reason)
        }
        // Decided over every clip, so that all shards describe the split the unsharded export would.
        let statisticsSplit = records.contains { $0.split == options.statisticsSplit } ? options.statisticsSplit : "all"
        let sharded = options.shard != .whole
        if sharded {
            records = records.filter { options.shard.contains($0.index) }
            guard !records.isEmpty else {
                throw FeatureFileError.nothingToExport(corpus: corpus.path, reason: "shard \(options.shard) holds no clip")
            }
        }
        let rates = Set(records.map(\.sampleRate))
        guard rates.count == 1, let sampleRate = rates.first else {
            throw FeatureFileError.nothingToExport(corpus: corpus.path, reason: FeatureRates.mixedRatesReason(records))
        }
        let bins = options.stft.binCount
        let c = options.stft
        let convention = c.center ? "center: 1 + num_samples // hop_length (zero padding n_fft // 2 on both sides)"
                                  : "no center: 1 + (num_samples - n_fft) // hop_length"
        let analysis = FeatureFileAttributes(
            stft: c, feature: options.feature, exponent: options.exponent, lcDB: options.lcDB,
            targets: options.targets.map(\.rawValue), split: options.split ?? "", corpus: corpus.standardizedFileURL.path)
        var attributes = analysis.values
        if sharded {
            attributes[FeatureFileLayout.shardAttribute] = .string(options.shard.description)
            attributes[FeatureFileLayout.corpusMixSHA256Attribute] = .string(try corpusIdentity(corpus))
        }
        let statisticsStreams = options.streamNames.filter { $0 == "noisy" || (FeatureTarget(rawValue: $0)?.isSignalFeature ?? false) }
        let copied = try options.statisticsFrom.map { source throws(FeatureFileError) in
            try CopiedStatistics.read(from: source, streams: statisticsStreams, bins: bins, matching: analysis)
        }
        let writer = try FeatureFileWriter(
            url: output, streams: options.streamNames.map { StreamSpec($0, bins: bins) }, dtype: options.dtype,
            compression: options.compression,
            metadata: FeatureFileMetadata(sampleRate: sampleRate, frameConvention: convention, mixRunID: mixRunID,
                                          featuresRunID: featuresRunID),
            attributes: attributes, overwrite: options.overwrite)
        var statistics = Dictionary(uniqueKeysWithValues: statisticsStreams.map { ($0, FeatureStatistics(bins: bins)) })
        do {
            // Clips are transformed in parallel rounds and appended in manifest order by this
            // thread alone: the file does not depend on --jobs, and memory holds one round.
            var done = 0
            // A long clip (``FeatureExportOptions/streamedClipValues``) is left to this thread, which writes it a block
            // of frames at a time: its streams are never whole in memory.
            try ParallelMap.forEachInOrder(records, jobs: options.jobs) { record -> [String: [Float]]? in
                isLong(record, options: options) ? nil : try clipStreams(record, corpus: stems, options: options)
            } consume: { record, streams in
                let counted = copied == nil && (statisticsSplit == "all" || record.split == statisticsSplit) ? statisticsStreams : []
                if let streams {
                    try writer.append(clipID: record.clipID, split: record.split, snrDB: record.snrDBRequested,
                                      clipIndex: sharded ? record.index : nil, frames: streams)
                    for name in counted { try statistics[name]!.add(frames: streams[name]!, dtype: options.dtype) }
                } else {
                    try appendInBlocks(record, corpus: stems, options: options, writer: writer, clipIndex: sharded ? record.index : nil,
                                       statisticsStreams: counted, statistics: &statistics)
                }
                done += 1
                progress(done, records.count)
            }
            let stored = copied?.split ?? statisticsSplit
            let summary = try writer.finish(statistics: copied?.statistics ?? statistics, statisticsSplit: stored,
                                            emptyStatisticsAllowed: sharded, beforeRename: beforeCommit)
            return FeatureExportResult(summary: summary, statisticsSplit: stored, missingClips: missingClips, stft: options.stft)
        } catch {
            writer.discard()
            throw error
        }
    }

    /// Whether `record` is exported a block at a time (by its manifest length, ``FeatureExportOptions/streamedClipValues``).
    static func isLong(_ record: MixManifestRecord, options: FeatureExportOptions) -> Bool {
        options.stft.frameCount(samples: record.numSamples) * options.stft.binCount > options.streamedClipValues
    }

    /// The streams of one clip, `[frames × bins]` each.
    static func clipStreams(_ record: MixManifestRecord, corpus: MixCorpusAudio,
                            options: FeatureExportOptions) throws -> [String: [Float]] {
        var features = ClipFeatures(try readStems(record, corpus: corpus, options: options), options: options)
        let all = 0..<features.frameCount
        var streams: [String: [Float]] = [:]
        for name in options.streamNames { streams[name] = features.values(of: name, frames: all) }
        return streams
    }

    /// Appends one clip a block of frames at a time (`FeatureFileWriter/append(clipID:split:snrDB:numFrames:blockFrames:fill:)`),
    /// with its statistics for `statisticsStreams`: the per-bin sums as the blocks are written,
    /// then the deviations from the clip's mean over the same blocks made again (the values of
    /// ``FeatureStatistics/add(frames:dtype:)-(UnsafeBufferPointer<Float>,_)`` on the whole clip).
    static func appendInBlocks(_ record: MixManifestRecord, corpus: MixCorpusAudio, options: FeatureExportOptions,
                               writer: FeatureFileWriter,
                               clipIndex: Int?, statisticsStreams: [String], statistics: inout [String: FeatureStatistics]) throws {
        var features = ClipFeatures(try readStems(record, corpus: corpus, options: options), options: options)
        let bins = options.stft.binCount, dtype = options.dtype
        var batches = Dictionary(uniqueKeysWithValues: statisticsStreams.map { ($0, FeatureStatistics.Batch(bins: bins)) })
        var blocks: [Range<Int>] = []
        try writer.append(clipID: record.clipID, split: record.split, snrDB: record.snrDBRequested, clipIndex: clipIndex,
                          numFrames: features.frameCount, blockFrames: options.streamedBlockFrames) { stream, frames, out in
            if stream.name == options.streamNames[0] { blocks.append(frames) }
            let values = features.values(of: stream.name, frames: frames)
            _ = out.update(fromContentsOf: values)
            if batches[stream.name] != nil { storedValues(values,
                                                          dtype: dtype).withUnsafeBufferPointer { batches[stream.name]!.addToSums($0) } }
        }
        for name in statisticsStreams {
            for frames in blocks {
                storedValues(features.values(of: name, frames: frames),
                             dtype: dtype).withUnsafeBufferPointer { batches[name]!.addToDeviations($0) }
            }
            statistics[name]!.add(batches[name]!)
        }
    }

    /// What identifies the corpus a shard was exported from: the SHA-256 of its `mix.json`
    /// (options and sources; the same for every shard of one mix), empty when it has none.
    static func corpusIdentity(_ corpus: URL) throws -> String {
        let spec = MixCorpusLayout(root: corpus).specFile
        guard FileManager.default.fileExists(atPath: spec.path) else { return "" }
        return try SHA256.hex(ofFileAt: spec)
    }

    /// `values` as a file of `dtype` stores them (float16: rounded to nearest even).
    static func storedValues(_ values: [Float], dtype: FeatureDType) -> [Float] {
        dtype == .float16 ? values.map { Float(Float16($0)) } : values
    }

    /// The stems a clip's streams need, read and checked against the manifest and each other.
    static func readStems(_ record: MixManifestRecord, corpus: MixCorpusAudio, options: FeatureExportOptions) throws -> ClipStems {
        let needsClean = options.targets.contains { $0 != .noisyPhase }
        let needsNoise = options.targets.contains { $0 == .noise || $0 == .irm || $0 == .ibm }
        let noisy = try read(corpus.root.appendingPathComponent(record.noisy), record: record, from: corpus)
        let clean = needsClean ? try read(corpus.root.appendingPathComponent(record.clean), record: record, from: corpus) : nil
        let noise = needsNoise ? try read(corpus.root.appendingPathComponent(record.noise), record: record, from: corpus) : nil
        for (name, other) in [("clean", clean), ("noise", noise)] {
            if let other, other.count != noisy.count {
                throw FeatureFileError.clipMismatch(clipID: record.clipID,
                                                    reason: "\(name) has \(other.count) samples, noisy \(noisy.count)")
            }
        }
        return ClipStems(noisy: noisy, clean: clean, noise: noise)
    }

    /// A stem at the corpus rate (a file, or a member of an archive shard), checked against the manifest.
    static func read(_ url: URL, record: MixManifestRecord, from corpus: MixCorpusAudio) throws -> [Float] {
        // (A stem in an archive shard is checked as it is read: the error names the shard and member.)
        guard corpus.archive != nil || FileManager.default.fileExists(atPath: url.path) else {
            throw FeatureFileError.input(path: url.path, reason: "missing (clip \(record.clipID) is in the manifest)")
        }
        let buffer = try corpus.read(url)
        guard buffer.sampleRate == record.sampleRate else {
            throw FeatureFileError.input(path: url.path,
                                         reason: "sample rate \(buffer.sampleRate) Hz, the corpus is \(record.sampleRate) Hz")
        }
        return buffer.samples
    }
}
