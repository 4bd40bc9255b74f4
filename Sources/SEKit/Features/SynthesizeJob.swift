import Foundation

/// `sekit synthesize` as one library entry point: the synthesis (``FeatureSynthesis``) with its
/// output folder claimed and its catalogue run.
public enum SynthesizeJob {
    /// What to synthesise, from what, where, and how.
    public struct Request: Sendable {
        /// The feature file (its STFT parameters, index and phase).
        public var features: URL
        /// The HDF5 file holding `dataset` (nil: the feature file itself).
        public var predictions: URL?
        /// The dataset of predictions (`mask`, `irm`, ...).
        public var dataset: String
        /// The mixed corpus (nil: the file's `corpus` attribute).
        public var corpus: URL?
        /// The folder of WAVs to write.
        public var output: URL
        /// Kind, phase, format, jobs, split and shard.
        public var options: FeatureSynthesis.Options

        public init(features: URL, predictions: URL? = nil, dataset: String, corpus: URL? = nil, output: URL,
                    options: FeatureSynthesis.Options = .init()) {
            self.features = features; self.predictions = predictions; self.dataset = dataset
            self.corpus = corpus; self.output = output; self.options = options
        }
    }

    /// Opens the feature file and the predictions, writes one WAV per
    /// clip (see ``FeatureSynthesis/run(features:predictions:output:corpus:options:progress:)``) and records a
    /// `synthesize` run (parent: the file's features run when it is in the same catalogue).
    /// Clips that cannot be synthesised are counted in `clips_failed` and returned; the run is
    /// `finished` (see ``RecordedRun``).
    /// The output folder is claimed per shard (``OutputLock/init(folder:shard:)``): the N shards of one
    ///   command may write into it together, the same shard twice may not.
    /// - Throws: ``FeatureFileError`` for unreadable or mismatched files, before anything is written.
    public static func run(_ request: Request, context: RunContext, progress: @escaping ProgressHandler = { _, _ in })
        throws -> (result: FeatureSynthesis.Result, run: RecordedRun) {
        let (features, predictions, dataset) = (request.features, request.predictions, request.dataset)
        let (corpus, output, options) = (request.corpus, request.output, request.options)
        let lock = try OutputLock(folder: output, shard: options.shard)
        defer { withExtendedLifetime(lock) {} }
        AtomicFile.removeStaleTemporaries(in: output)  // WAVs of a killed earlier synthesis
        let reader = try FeatureFileReader(url: features)
        let predictionsURL = predictions ?? features
        let matrix = try PredictionMatrix(url: predictionsURL, dataset: dataset)
        let featuresRun = reader.attributes[FeatureFileAttributes.Name.featuresRunID]?.stringValue ?? ""
        func recorded(_ id: String) -> RunID? {
            guard !id.isEmpty, let catalog = context.catalog, (try? catalog.run(id)) != nil else { return nil }
            return RunID(id)
        }
        // The run that made the predictions (a training run) when the file names one in this
        // catalogue, else the features run: score <- synthesize <- train <- features <- mix.
        let parent = recorded(matrix.runID) ?? recorded(featuresRun)
        var params = ["features": features.standardizedFileURL.path, "predictions": predictionsURL.standardizedFileURL.path,
                      "dataset": dataset, "kind": options.kind.rawValue, "phase": options.phase.rawValue,
                      "out": output.standardizedFileURL.path, "shard": options.shard.description]
        // The file's features run, also when it is not in this catalogue (a shard's catalogue before
        // `catalog merge` brings in the folded features run of a merged file): the merge links them.
        if !featuresRun.isEmpty { params["features_run_id"] = featuresRun }
        if !matrix.runID.isEmpty { params["predictions_run_id"] = matrix.runID }
        if let split = options.split { params["split"] = split }
        let run = try RecordedRun.begin(context, kind: .synthesize, name: output.lastPathComponent, params: params, parent: parent)
        let result = try run.failing {
            let result = try FeatureSynthesis.run(features: reader, predictions: matrix, output: output, corpus: corpus,
                                                  options: options, progress: progress)
            // The folder names the run that wrote it, as enhance's does: `score --enhanced` takes it as its parent.
            try EnhanceRunMarker(catalog: context.catalog?.url.standardizedFileURL.path, runID: run.id, method: "synthesize")
                .write(in: output, shard: options.shard)
            try run.finish(params: ["clips_written": "\(result.written)", "clips_failed": "\(result.failures.count)"])
            return result
        }
        return (result, run)
    }
}
