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
        /// when `k mod N = i − 1` (`Shard.contains(_:)`). The N shards of one command may write
        /// into one folder at once.
        public var shard: Shard = .whole
        /// Synthesise only the clips of this split (`/index/split`); nil: every split. Without an
        /// `/index` of their own, predictions may then hold just this split's rows, in file order.
        public var split: String?
        public init() {}
    }

    public struct Result: Sendable {
        public var written: Int
        public var failures: [(clipID: String, reason: String)]
    }

    /// Writes `output/CLIP_ID.wav` for every clip of `features` that the predictions hold (of
    /// `options.split` and `options.shard`), from rows of `predictions`: the feature file's rows in
    /// its order, a split's rows, or clips named by an `/index` of their own (see ``PredictionPlan``).
    /// - Parameter corpus: the mixed corpus (for the noisy WAVs and clip lengths); default: the
    ///   file's `corpus` attribute.
    public static func run(features: FeatureFileReader, predictions: PredictionMatrix, output: URL, corpus: URL?,
                           options: Options, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> Result {
        let attributes = try FeatureFileAttributes(reading: features.attributes, path: features.url.path)
        guard let sampleRate = features.attributes[FeatureFileAttributes.Name.sampleRate]?.intValue else {
            throw FeatureFileError.notAFeatureFile(path: features.url.path,
                                                   reason: "attribute 'sample_rate' missing (not written by sekit features?)")
        }
        let exponent = Float(attributes.exponent), feature = attributes.feature
        let config = attributes.stft
        let bins = config.binCount
        let plan = try PredictionPlan.make(predictions: predictions, features: features, bins: bins, split: options.split,
                                           shard: options.shard)
        let hasPhase = features.streams.contains { $0.name == FeatureTarget.noisyPhase.rawValue }
        let useStored = options.phase == .stored || (options.phase == .auto && hasPhase)
        if useStored && !hasPhase {
            throw FeatureFileError.unknownStream(path: features.url.path, stream: FeatureTarget.noisyPhase.rawValue)
        }
        let corpusURL = corpus ?? (attributes.corpus.isEmpty ? nil : URL(fileURLWithPath: attributes.corpus))
        var manifest: [String: MixManifestRecord] = [:]
        let stems = try corpusURL.map { try MixCorpusAudio(corpus: $0) }
        if let corpusURL {
            for record in try MixManifestRecord.read(MixManifestRecord.files(inCorpus: corpusURL)) { manifest[record.clipID] = record }
        }
        if !useStored && manifest.isEmpty {
            throw FeatureFileError.nothingToExport(corpus: corpusURL?.path ?? "(no corpus)",
                                             reason: "recomputing the noisy phase needs the corpus or a stored noisy_phase stream")
        }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let records = manifest
        let outcomes = ParallelMap.map(plan.items, jobs: options.jobs, progress: progress) { item -> (clipID: String, reason: String)? in
            let clip = item.clip
            do {
                // HDF5 reads are serialised by the library lock; the STFT work runs in parallel.
                let predicted = try predictions.rows(item.rows)
                var magnitude: [Float], phase: [Float]
                let record = records[clip.clipID]
                if useStored {
                    phase = try features.frames(stream: FeatureTarget.noisyPhase.rawValue, range: clip.frameRange)
                    magnitude = try features.frames(stream: "noisy", range: clip.frameRange).map { feature.invert($0, exponent: exponent) }
                } else {
                    guard let record, let corpusURL, let stems else { throw FeatureFileError.clipMismatch(clipID: clip.clipID,
                            reason: "not in the corpus manifest") }
                    let noisy = try FeatureExport.read(corpusURL.appendingPathComponent(record.noisy), record: record, from: stems)
                    let Y = try STFT.forward(noisy, configuration: config)
                    guard Y.frames == clip.numFrames else {
                        throw FeatureFileError.clipMismatch(clipID: clip.clipID,
                                                            reason: "noisy WAV gives \(Y.frames) frames, the file has \(clip.numFrames)")
                    }
                    magnitude = Y.magnitude()
                    phase = Y.phase()
                }
                let audio = try resynthesize(predicted, kind: options.kind, feature: feature, exponent: exponent,
                                             noisyMagnitude: magnitude, noisyPhase: phase, configuration: config,
                                             frames: clip.numFrames, length: record?.numSamples)
                try AudioWriter.write(AudioBuffer(samples: audio, sampleRate: sampleRate),
                                      to: output.appendingPathComponent(clip.clipID + ".wav"), format: options.format)
                return nil
            } catch {
                return (clip.clipID, "\(error)")
            }
        }
        let failures = outcomes.compactMap { $0 }.sorted { $0.clipID < $1.clipID }
        return Result(written: plan.items.count - failures.count, failures: failures)
    }

    /// The audio of one clip's prediction (frames × bins, row-major) applied to its noisy STFT
    /// without computing a phase: a mask multiplies Y; a magnitude in the feature domain
    /// (``FeatureKind/invert(_:exponent:)``) replaces |Y| along Y/|Y| (along the real axis where Y = 0,
    /// as a phase of atan2(0, 0) = 0 would). Then the inverse STFT, trimmed or padded to `length`.
    public static func resynthesize(_ predicted: [Float], kind: PredictionKind, feature: FeatureKind, exponent: Float,
                                    noisy: Spectrogram, length: Int?) throws(DSPError) -> [Float] {
        var values = noisy.values
        for k in 0..<predicted.count {
            let re = values[2 * k], im = values[2 * k + 1]
            var gain = predicted[k]
            if kind == .magnitude {
                let magnitude = (re * re + im * im).squareRoot(), target = feature.invert(predicted[k], exponent: exponent)
                guard magnitude > 0 else { values[2 * k] = target; continue }
                gain = target / magnitude
            }
            values[2 * k] = gain * re
            values[2 * k + 1] = gain * im
        }
        return try STFT.inverse(Spectrogram(configuration: noisy.configuration, frames: noisy.frames, values: values), length: length)
    }

    /// The audio of one clip's prediction (frames × bins, row-major) with the noisy phase: a mask
    /// multiplies the noisy magnitude, a magnitude in the feature domain is inverted
    /// (``FeatureKind/invert(_:exponent:)``); then the inverse STFT, trimmed or padded to `length`.
    public static func resynthesize(_ predicted: [Float], kind: PredictionKind, feature: FeatureKind, exponent: Float,
                                    noisyMagnitude magnitude: [Float], noisyPhase phase: [Float],
                                    configuration: STFTConfiguration, frames: Int, length: Int?) throws(DSPError) -> [Float] {
        var values = [Float](repeating: 0, count: 2 * predicted.count)
        for k in 0..<predicted.count {
            let m = kind == .mask ? predicted[k] * magnitude[k] : feature.invert(predicted[k], exponent: exponent)
            values[2 * k] = m * cos(phase[k])
            values[2 * k + 1] = m * sin(phase[k])
        }
        return try STFT.inverse(Spectrogram(configuration: configuration, frames: frames, values: values), length: length)
    }
}
