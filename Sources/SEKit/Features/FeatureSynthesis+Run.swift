import Foundation

extension FeatureSynthesis {
    /// What `sekit synthesize` does: opens the feature file and the predictions, writes one WAV per
    /// clip (see ``run(features:predictions:output:corpus:options:progress:)``) and records a
    /// `synthesize` run (parent: the file's features run when it is in the same catalogue).
    /// Clips that cannot be synthesised are counted in `clips_failed` and returned; the run is
    /// `finished` (see ``RecordedRun``).
    /// - Parameters:
    ///   - predictions: the HDF5 file holding `dataset` (nil: the feature file itself).
    ///   - corpus: the mixed corpus (default: the file's `corpus` attribute).
    ///   The output folder is claimed per shard (``OutputLock/init(folder:shard:)``): the N shards of one
    ///   command may write into it together, the same shard twice may not.
    /// - Throws: ``FeatureFileError`` for unreadable or mismatched files, before anything is written.
    public static func synthesize(features: URL, predictions: URL?, dataset: String, corpus: URL?, output: URL,
                                  options: Options, context: RunContext,
                                  progress: @escaping ProgressHandler = { _, _ in }) throws -> (result: Result, run: RecordedRun) {
        let lock = try OutputLock(folder: output, shard: options.shard)
        defer { withExtendedLifetime(lock) {} }
        AtomicFile.removeStaleTemporaries(in: output)  // WAVs of a killed earlier synthesis
        let reader = try FeatureFileReader(url: features)
        let predictionsURL = predictions ?? features
        let matrix = try PredictionMatrix(url: predictionsURL, dataset: dataset)
        var parent: RunID?
        let featuresRun = reader.attributes["features_run_id"]?.stringValue ?? ""
        if let catalog = context.catalog, !featuresRun.isEmpty, (try? catalog.run(featuresRun)) != nil {
            parent = RunID(featuresRun)
        }
        var params = ["features": features.standardizedFileURL.path, "predictions": predictionsURL.standardizedFileURL.path,
                      "dataset": dataset, "kind": options.kind.rawValue, "phase": options.phase.rawValue,
                      "out": output.standardizedFileURL.path, "shard": options.shard.description]
        // The file's features run, also when it is not in this catalogue (a shard's catalogue before
        // `catalog merge` brings in the folded features run of a merged file): the merge links them.
        if !featuresRun.isEmpty { params["features_run_id"] = featuresRun }
        let run = try RecordedRun.begin(context, kind: .synthesize, name: output.lastPathComponent, params: params, parent: parent)
        let result = try run.failing {
            let result = try FeatureSynthesis.run(features: reader, predictions: matrix, output: output, corpus: corpus, options: options, progress: progress)
            try run.finish(params: ["clips_written": "\(result.written)", "clips_failed": "\(result.failures.count)"])
            return result
        }
        return (result, run)
    }
}
