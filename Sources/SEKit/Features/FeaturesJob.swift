import Foundation

/// `sekit features` as one library entry point: the export (``FeatureExport``) with its output
/// claimed and its catalogue run.
public enum FeaturesJob {
    /// What to export, where, and how.
    public struct Request: Sendable {
        /// The mixed corpus folder.
        public var corpus: URL
        /// The HDF5 file to write.
        public var output: URL
        /// STFT, feature, targets, split, storage and shard options.
        public var options: FeatureExportOptions

        public init(corpus: URL, output: URL, options: FeatureExportOptions = FeatureExportOptions()) {
            self.corpus = corpus; self.output = output; self.options = options
        }
    }

    /// Exports the request's corpus to its output (see ``FeatureExport``) and records a `features`
    /// run (parent: the corpus's mix run when it is in the same catalogue) with every parameter,
    /// the clip and frame counts, and the file as an artifact
    /// (`features-hdf5`, SHA-256). A failed export leaves no file and a `failed` run.
    /// - Throws: ``FeatureFileError/outputExists(path:)`` before anything is recorded when the
    ///   output exists and `options.overwrite` is false; everything `run` throws.
    public static func run(_ request: Request, context: RunContext,
                           progress: @escaping ProgressHandler = { _, _ in }) throws -> (result: FeatureExportResult, run: RecordedRun) {
        let (corpus, output) = (request.corpus, request.output)
        var options = request.options
        if let framing = options.framing { options.stft = try framing.configuration(corpus: corpus, base: options.stft,
                                                                                                sampleRate: options.sampleRate) }
        let lock = try OutputLock(output: output.path, lockFile: OutputLock.lockFile(besideFile: output))
        defer { withExtendedLifetime(lock) {} }
        // Temporary files of this output left by a killed writer.
        AtomicFile.removeStaleTemporaries(in: output.deletingLastPathComponent(), named: output.lastPathComponent)
        if !options.overwrite, FileManager.default.fileExists(atPath: output.path) {
            throw FeatureFileError.outputExists(path: output.path)
        }
        let lineage = CorpusLineage(corpus: corpus, catalog: context.catalog)
        let c = options.stft
        let params: [String: String] = [
            "corpus": corpus.standardizedFileURL.path, "out": output.standardizedFileURL.path, "split": options.split ?? "",
            "n_fft": "\(c.fftSize)", "win_length": "\(c.winLength)", "hop_length": "\(c.hopLength)", "window": c.window.rawValue,
            "center": "\(c.center)", "feature": options.feature.rawValue, "exponent": "\(options.exponent)",
            "targets": options.targets.map(\.rawValue).joined(separator: ","), "lc_db": "\(options.lcDB)",
            "dtype": options.dtype.rawValue, "compression": options.compression.description, "shard": options.shard.description]
            .merging(lineage.params(recorded: context.catalog != nil)) { old, _ in old }
            .merging(options.statisticsFrom.map { ["stats_from": $0.standardizedFileURL.path] } ?? [:]) { old, _ in old }
            .merging(options.framing.map { ["framing": $0.rawValue] } ?? [:]) { old, _ in old }
            .merging(options.sampleRate.map { ["sample_rate": "\($0)"] } ?? [:]) { old, _ in old }
        let run = try RecordedRun.begin(context, kind: .features, name: output.lastPathComponent, params: params,
                                        parent: lineage.parent)
        let result = try run.failing {
            // The file is recorded (hashed) before it takes its final name: a kill after the rename
            // leaves a recorded artifact and a `running` run for `catalog check`, never an
            // unrecorded file.
            let result = try FeatureExport.run(corpus: corpus, output: output, options: options,
                                               mixRunID: lineage.mixRunsAnywhere.map(\.runID.rawValue).joined(separator: ","),
                                               featuresRunID: run.id?.rawValue ?? "", progress: progress,
                                               beforeCommit: { temporary in
                                                   try run.recordArtifact(fileAt: temporary, kind: "features-hdf5", recordedPath: output)
                                               })
            try run.finish(params: ["clips": "\(result.clips)", "frames": "\(result.summary.totalFrames)",
                                    "statistics_split": result.statisticsSplit, "clips_missing": "\(result.missingClips)"])
            return result
        }
        return (result, run)
    }
}
