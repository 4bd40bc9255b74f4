import Foundation

/// What `sekit score` does, as one library entry point: find the pairs, keep this shard's,
/// score them in parallel, summarise, write the per-clip CSV and record the run.
public enum ScoreJob {
    /// Where the pairs come from.
    public enum Pairing: Sendable {
        /// Through a mixed corpus's manifest (noisy input, requested SNR and split known); without
        /// `enhanced` the noisy inputs themselves are scored.
        case corpus(URL, enhanced: URL?, split: String?)
        /// Files matched by their path relative to each folder.
        case folders(reference: URL, enhanced: URL, noisy: URL?)
        /// Every audio file of a folder on its own, without a reference (real recordings):
        /// non-intrusive metrics only.
        case withoutReference(enhanced: URL)

        /// Whether the pairs have clean references.
        var hasReference: Bool {
            if case .withoutReference = self { return false }
            return true
        }
    }

    /// Everything a scoring needs.
    public struct Request: Sendable {
        public var pairing: Pairing
        public var metrics: [Metric]
        public var alignment: ScoreAlignment = .strict
        /// The model checkpoint or system scored: the run's name and its `checkpoint` parameter.
        public var checkpoint: String
        public var shard: Shard = .whole
        public var jobs = 1
        /// Also write per-clip scores here as CSV (atomically).
        public var perClipCSV: URL?
        /// Score a corpus whose mix did not finish (fewer clips than planned) instead of refusing it.
        public var allowIncomplete = false
        /// What the metrics that take samples in [−1, 1] only do with a signal beyond full scale.
        public var fullScale: FullScalePolicy = .refuse
        /// The metric preset `--metrics` named (``MetricPreset``), recorded as `metric_preset`.
        public var preset: String?
        /// The transcript file of `wer` and `cer` (``TranscriptFile``), recorded as `transcripts`
        /// with its SHA-256 (`transcripts_sha256`).
        public var transcripts: URL?

        public init(pairing: Pairing, metrics: [Metric], checkpoint: String) {
            self.pairing = pairing; self.metrics = metrics; self.checkpoint = checkpoint
        }

        /// The run's parameters (absolute paths).
        var params: [String: String] {
            var params = ["metrics": metrics.map(\.rawValue).joined(separator: ","), "align": alignment.rawValue,
                          "shard": shard.description]
            // Recorded only when given, so that older runs' parameters are unchanged.
            if fullScale != .refuse { params["full_scale"] = fullScale.rawValue }
            if let preset { params["metric_preset"] = preset }
            if let transcripts { params["transcripts"] = transcripts.standardizedFileURL.path }
            func path(_ url: URL) -> String { url.standardizedFileURL.path }
            switch pairing {
            case let .corpus(corpus, enhanced, split):
                params["corpus"] = path(corpus)
                if let enhanced { params["enhanced"] = path(enhanced) }
                if let split { params["split"] = split }
            case let .folders(reference, enhanced, noisy):
                params["reference"] = path(reference)
                params["enhanced"] = path(enhanced)
                if let noisy { params["noisy"] = path(noisy) }
            case let .withoutReference(enhanced):
                params["enhanced"] = path(enhanced)
            }
            return params
        }
    }

    /// What a scoring produced.
    public struct Outcome: Sendable {
        /// One entry per clip of the shard, in pairing order (failures carry their reason).
        public var clips: [ClipScores]
        public var summary: [ScoreAggregate]
        public var run: RecordedRun
        /// Clips the corpus's mix planned but did not make (scored only with `allowIncomplete`).
        public var missingClips = 0
        /// Clips that could not be scored.
        public var failed: Int { clips.filter { $0.error != nil }.count }
        /// Metric values (enhanced or noisy) of scored clips that could not be computed.
        public var failedValues: Int { clips.reduce(0) { $0 + $1.failedValues } }
    }

    /// Scores the request's pairs and records a `score` run (parent: the corpus's mix run when
    /// it was catalogued in the same catalogue). Clips that cannot be scored are per-clip
    /// failures, counted in `clips_failed`; the run is `finished` (see ``RecordedRun``).
    ///
    /// Metrics that run in Python (PESQ, the composite measures, DNSMOS) are checked first: a
    /// missing or broken environment is one ``MetricBackendError`` before any clip is scored, and
    /// the run records the interpreter, package versions and model hashes (``PythonBackendDescription``)
    /// and how many clips a metric converted to its rate (`resampled_clips`, `resampled_from_hz`).
    /// - Parameter pythonPool: the Python workers to use (nil: a pool for this scoring).
    /// - Throws: ``ScoreError`` when there is nothing to score or an intrusive metric is asked for
    ///   without references; ``MetricBackendError`` (also when a Python worker does not answer within
    ///   ``PythonWorkerTimeouts``: the run is then failed); catalogue or file errors.
    public static func run(_ request: Request, context: RunContext, pythonPool: PythonWorkerPool? = nil,
                           progress: ProgressHandler? = nil) throws -> Outcome {
        if !request.pairing.hasReference {
            let intrusive = MetricRegistry.intrusive(request.metrics)
            guard intrusive.isEmpty else { throw ScoreError.needsReference(metrics: intrusive.map(\.rawValue)) }
        }
        var params = request.params
        let transcripts = try request.transcripts.map { url throws(ScoreError) in try TranscriptFile(url: url) }
        if let transcripts { params["transcripts_sha256"] = transcripts.sha256 }
        let python = MetricRegistry.pythonPackages(for: request.metrics)
        let pool = pythonPool ?? PythonWorkerPool()
        let pairs: [ScorePair]
        var corpus: URL?
        var snrRule: SNRSubsetRule?
        var missingClips = 0
        switch request.pairing {
        case let .corpus(url, enhanced, split):
            pairs = try ScorePairing.fromCorpus(url, enhanced: enhanced, split: split, allowIncomplete: request.allowIncomplete)
            corpus = url
            snrRule = MixCorpusLayout(root: url).recordedSNRSubsetRule
            if let snrRule { params[SNRSubsetRule.recordKey] = snrRule.rawValue }
            if request.allowIncomplete { missingClips = try MixManifestRecord.corpusRecords(url, allowIncomplete: true).missing }
        case let .folders(reference, enhanced, noisy):
            pairs = try ScorePairing.byName(reference: reference, enhanced: enhanced, noisy: noisy)
        case let .withoutReference(enhanced):
            pairs = try ScorePairing.withoutReference(enhanced: enhanced)
        }
        var mine = pairs.enumerated().filter { request.shard.contains($0.offset) }.map(\.element)
        if let transcripts { for index in mine.indices { mine[index].transcript = transcripts.transcript(of: mine[index].clipID) } }
        if !python.packages.isEmpty {
            let backend = try pool.describe(packages: python.packages, models: python.models, for: python.metrics,
                                            warming: min(request.jobs, mine.count) - 1)
            params.merge(backend.runParams) { _, new in new }
        }
        let lock = try request.perClipCSV.map { try OutputLock(output: $0.path, lockFile: OutputLock.lockFile(besideFile: $0)) }
        defer { withExtendedLifetime(lock) {} }
        if let csv = request.perClipCSV {
            AtomicFile.removeStaleTemporaries(in: csv.deletingLastPathComponent(), named: csv.lastPathComponent)
        }
        let enhancedFolder: URL?
        switch request.pairing {
        case let .corpus(_, enhanced, _): enhancedFolder = enhanced
        case let .folders(_, enhanced, _), let .withoutReference(enhanced): enhancedFolder = enhanced
        }
        let recorder = try ScoreCatalogRecorder.begin(context, checkpoint: request.checkpoint, params: params, corpus: corpus,
                                                      enhanced: enhancedFolder)
        return try recorder.run.failing {
            let clips = ScoreRunner.score(mine, metrics: request.metrics, alignment: request.alignment, jobs: request.jobs,
                                          pythonPool: pool, corpus: try corpus.map { try MixCorpusAudio(corpus: $0) },
                                          fullScale: request.fullScale, progress: progress ?? { _, _ in })
            // A Python worker that did not answer in time stops the scoring (the environment hangs).
            if let expired = pool.expired {
                let clip = clips.first { $0.metricErrors.values.contains { $0.contains(expired.description) } }?.pair.clipID
                throw MetricBackendError.timedOut(expired, metrics: python.metrics, interpreter: pool.environment.interpreter.path,
                                                  clip: clip)
            }
            let summary = ScoreSummary.aggregate(clips, metrics: request.metrics, snrRule: snrRule)
            // The CSV first: scores already computed are kept even if recording them fails.
            if let perClip = request.perClipCSV {
                try ScoreReport.writeCSV(clips: clips, metrics: request.metrics, to: perClip)
            }
            if corpus != nil { try recorder.run.setParams(["clips_missing": "\(missingClips)"]) }
            let resampled = clips.compactMap(\.resampledFromHz)
            if !resampled.isEmpty {
                try recorder.run.setParams(["resampled_clips": "\(resampled.count)",
                                            "resampled_from_hz": Set(resampled).sorted().map(String.init).joined(separator: ",")])
            }
            try recorder.finish(clips: clips, summary: summary, metrics: request.metrics)
            return Outcome(clips: clips, summary: summary, run: recorder.run, missingClips: missingClips)
        }
    }
}
