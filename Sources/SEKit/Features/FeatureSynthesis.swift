import Foundation

/// Turns a model's predictions on a feature file's frames back into audio.
public enum FeatureSynthesis {
    /// What a prediction holds per time-frequency bin.
    public enum PredictionKind: String, Sendable, CaseIterable, Codable {
        /// A gain applied to the noisy STFT (keeping its phase): Ŝ = M·Y.
        case mask
        /// The enhanced magnitude in the feature file's own domain (its `feature` and `exponent`
        /// attributes), combined with the noisy phase.
        case magnitude
    }

    /// Where the noisy phase (and, for masks, the noisy STFT) comes from.
    public enum PhaseSource: String, Sendable, CaseIterable, Codable {
        /// The `noisy_phase` stream when the file has it, else recomputed from the noisy WAV.
        case auto
        /// The `noisy_phase` stream (and the noisy magnitude from the `noisy` stream).
        case stored
        /// The STFT of the noisy WAV of the corpus, recomputed with the file's parameters.
        case recompute
    }

    public struct Options: Sendable {
        public var kind: PredictionKind = .mask
        public var phase: PhaseSource = .auto
        public var format: AudioFileFormat = .wavFloat32
        public var jobs = 1
        /// Synthesise only this shard's clips: the feature file's clip `k` (0-based, in index order)
        /// when `k mod N = i − 1` (``Shard/contains(_:)``). The N shards of one command may write
        /// into one folder at once.
        public var shard: Shard = .whole
        public init() {}
    }

    public struct Result: Sendable {
        public var written: Int
        public var failures: [(clipID: String, reason: String)]
    }

    /// When the predictions file is another file with an `/index` of its own, its clips (ids,
    /// offsets, frame counts, in order) must be the feature file's: rows are matched by position,
    /// so a file written for another export (other clips, other order) would otherwise be
    /// resynthesised against the wrong clips without a word.
    /// - Throws: ``FeatureFileError/notAFeatureFile(path:reason:)`` naming the first clip that differs.
    static func checkIndex(of predictions: PredictionMatrix, against features: FeatureFileReader) throws {
        guard predictions.url.standardizedFileURL.path != features.url.standardizedFileURL.path, predictions.hasIndex else { return }
        let theirs = try FeatureFileReader(url: predictions.url).clips, ours = features.clips
        let describe = { (c: FeatureClip) in "\(c.clipID) (offset \(c.offset), \(c.numFrames) frames)" }
        for row in 0..<max(theirs.count, ours.count) {
            let a = row < theirs.count ? describe(theirs[row]) : "nothing"
            let b = row < ours.count ? describe(ours[row]) : "nothing"
            if a != b {
                throw FeatureFileError.notAFeatureFile(path: predictions.url.path,
                    reason: "its /index differs from \(features.url.path)'s at clip \(row): \(a) against \(b); predictions are matched to clips by row")
            }
        }
    }

    /// Writes `output/CLIP_ID.wav` for every clip of `features` (of `options.shard`), from rows of `predictions`
    /// (same frame order and count as the feature file's streams; an `/index` in the predictions
    /// file, when there is one, must match the feature file's, see ``checkIndex(of:against:)``).
    /// - Parameter corpus: the mixed corpus (for the noisy WAVs and clip lengths); default: the
    ///   file's `corpus` attribute.
    public static func run(features: FeatureFileReader, predictions: PredictionMatrix, output: URL, corpus: URL?,
                           options: Options, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> Result {
        let attributes = features.attributes
        guard let nFFT = attributes["n_fft"]?.intValue, let win = attributes["win_length"]?.intValue,
              let hop = attributes["hop_length"]?.intValue, let windowName = attributes["window"]?.stringValue,
              let window = WindowKind(rawValue: windowName), let center = attributes["center"]?.intValue,
              let featureName = attributes["feature"]?.stringValue, let feature = FeatureKind(rawValue: featureName),
              let sampleRate = attributes["sample_rate"]?.intValue else {
            throw FeatureFileError.notAFeatureFile(path: features.url.path, reason: "STFT/feature attributes missing (not written by sekit features?)")
        }
        let exponent = Float(attributes["exponent"]?.doubleValue ?? 0.3)
        let config = STFTConfiguration(fftSize: nFFT, winLength: win, hopLength: hop, window: window, center: center != 0)
        let bins = config.binCount
        let noisyInfo = try features.stream("noisy")
        guard predictions.columns == bins, predictions.rows == noisyInfo.totalFrames else {
            throw FeatureFileError.notAFeatureFile(path: predictions.url.path,
                reason: "/\(predictions.dataset) is [\(predictions.rows), \(predictions.columns)]; the feature file's streams are [\(noisyInfo.totalFrames), \(bins)]")
        }
        try checkIndex(of: predictions, against: features)
        let hasPhase = features.streams.contains { $0.name == FeatureTarget.noisyPhase.rawValue }
        let useStored = options.phase == .stored || (options.phase == .auto && hasPhase)
        if useStored && !hasPhase {
            throw FeatureFileError.unknownStream(path: features.url.path, stream: FeatureTarget.noisyPhase.rawValue)
        }
        let corpusURL = corpus ?? attributes["corpus"]?.stringValue.map { URL(fileURLWithPath: $0) }
        var manifest: [String: MixManifestRecord] = [:]
        if let corpusURL {
            for record in try MixManifestRecord.read(MixManifestRecord.files(inCorpus: corpusURL)) { manifest[record.clipID] = record }
        }
        if !useStored && manifest.isEmpty {
            throw FeatureExportError.noClips(corpus: corpusURL?.path ?? "(no corpus)",
                                             reason: "recomputing the noisy phase needs the corpus or a stored noisy_phase stream")
        }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let records = manifest
        let clips = features.clips.enumerated().filter { options.shard.contains($0.offset) }.map(\.element)
        let outcomes = ParallelMap.map(clips, jobs: options.jobs, progress: progress) { clip -> (clipID: String, reason: String)? in
            do {
                // HDF5 reads are serialised by the library lock; the STFT work runs in parallel.
                let predicted = try predictions.rows(clip.frameRange)
                var magnitude: [Float], phase: [Float]
                let record = records[clip.clipID]
                if useStored {
                    phase = try features.frames(stream: FeatureTarget.noisyPhase.rawValue, range: clip.frameRange)
                    magnitude = try features.frames(stream: "noisy", range: clip.frameRange).map { feature.invert($0, exponent: exponent) }
                } else {
                    guard let record, let corpusURL else { throw FeatureExportError.mismatch(clipID: clip.clipID, reason: "not in the corpus manifest") }
                    let noisy = try FeatureExport.read(corpusURL.appendingPathComponent(record.noisy), record: record)
                    let Y = try STFT.forward(noisy, configuration: config)
                    guard Y.frames == clip.numFrames else {
                        throw FeatureExportError.mismatch(clipID: clip.clipID, reason: "noisy WAV gives \(Y.frames) frames, the file has \(clip.numFrames)")
                    }
                    magnitude = Y.magnitude()
                    phase = Y.phase()
                }
                var values = [Float](repeating: 0, count: 2 * predicted.count)
                for k in 0..<predicted.count {
                    let m = options.kind == .mask ? predicted[k] * magnitude[k] : feature.invert(predicted[k], exponent: exponent)
                    values[2 * k] = m * cos(phase[k])
                    values[2 * k + 1] = m * sin(phase[k])
                }
                let length = record?.numSamples
                let audio = try STFT.inverse(Spectrogram(configuration: config, frames: clip.numFrames, values: values), length: length)
                try AudioWriter.write(AudioBuffer(samples: audio, sampleRate: sampleRate),
                                      to: output.appendingPathComponent(clip.clipID + ".wav"), format: options.format)
                return nil
            } catch {
                return (clip.clipID, "\(error)")
            }
        }
        let failures = outcomes.compactMap { $0 }.sorted { $0.clipID < $1.clipID }
        return Result(written: clips.count - failures.count, failures: failures)
    }
}
