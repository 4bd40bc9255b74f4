import Foundation

/// What `sekit enhance` does, as one library entry point: list the clips (a mixed corpus's
/// manifest, or the audio files of a folder), keep this shard's, enhance them in parallel with a
/// blind method or an oracle mask, write one WAV per clip, and record an `enhance` run (parent:
/// the corpus's mix run when it is in the same catalogue).
///
/// Outputs are named so that `sekit score` pairs them: `OUT/<clip id>.wav` for a corpus
/// (`score --corpus CORPUS --enhanced OUT`), the input's relative path for a folder
/// (`score --reference CLEAN --enhanced OUT`). Each keeps its input's sample rate and length.
public enum EnhanceJob {
    /// Where the noisy inputs come from.
    public enum Source: Sendable {
        /// A corpus made by `sekit mix` (its noisy files; its clean and noise stems for oracle masks).
        case corpus(URL, split: String?)
        /// Every audio file below a folder.
        case folder(URL)
    }

    public struct Request: Sendable {
        public var method: EnhanceMethod
        public var source: Source
        public var output: URL
        public var format: WAVSampleFormat = .float32
        public var blind = BlindEnhancerParameters()
        /// The IBM's local criterion, dB.
        public var lcDB: Double = 0
        public var jobs = 1
        public var shard: Shard = .whole
        /// Enhance a corpus whose mix did not finish.
        public var allowIncomplete = false
        /// Replace the outputs of another enhance run (another method, source, split, settings or
        /// shard layout) in `output`; without it such a folder is refused.
        public var overwrite = false
        /// A `.model` method: run its streaming model one frame at a time (``ModelEnhancer``).
        public var streaming = false
        /// Where a `.model` method's Python workers come from.
        public var python: PythonEnvironment = .located()

        public init(method: EnhanceMethod, source: Source, output: URL) {
            self.method = method; self.source = source; self.output = output
        }
    }

    /// One clip to enhance.
    struct Item: Sendable {
        var id: String
        var noisy: URL
        var clean: URL?
        var noise: URL?
        var output: URL
        /// The mixed corpus whose stems these are (read as files or archive members); nil for a folder's files.
        var corpus: MixCorpusAudio? = nil

        /// A stem or input of this item (a file, or a member of the corpus's archive shards).
        func read(_ url: URL) throws -> AudioBuffer { try corpus?.read(url) ?? AudioFile.read(at: url) }
        /// The header of the noisy input.
        func noisyInfo() throws -> AudioFileInfo { try corpus?.info(noisy) ?? AudioFile.info(at: noisy) }
    }

    public struct Result: Sendable {
        public var written: Int
        /// Clips that could not be enhanced, by id, with the reason (the others are written).
        public var failures: [(clipID: String, reason: String)]
        /// Written clips whose input has several channels, by id, with the count: they were
        /// enhanced as the average of their channels (the output is mono).
        public var downmixed: [(clipID: String, channels: Int)] = []
        /// Written clips with samples beyond full scale that a 16-bit output clipped, by id, with the count.
        public var clipped: [(clipID: String, samples: Int)] = []
    }

    /// What happened to one clip: the failure, or what its input and output were like.
    private struct Outcome: Sendable {
        var failure: String?
        var channels = 1
        var clippedSamples = 0
    }

    /// Loads and checks every model of a `--model` list (its metadata, inputs and outputs, and with
    /// `streaming` its streaming companion) before any of them enhances a clip, so that a list never
    /// stops after partial work on an error it could have found first.
    /// - Throws: ``ModelError`` naming the first file that breaks the contract.
    public static func checkModels(_ files: [URL], streaming: Bool, python: PythonEnvironment = .located()) throws(ModelError) {
        let pool = PythonWorkerPool(environment: python)
        for file in files { _ = try ModelEnhancer(file: file, streaming: streaming, pool: pool) }
    }

    /// Enhances the request's clips and records the run.
    /// - Throws: ``EnhancementError`` for an oracle method without a corpus, bad parameters or no
    ///   clips; ``CorpusError``/``ScoreError`` for an unusable corpus or folder; catalogue errors. Clips
    ///   that fail are counted in `clips_failed` and returned, the run is `finished`.
    public static func run(_ request: Request, context: RunContext,
                           progress: @escaping ProgressHandler = { _, _ in }) throws -> (result: Result, run: RecordedRun) {
        let model = try request.method.modelFile.map { file throws(ModelError) in
            try ModelEnhancer(file: file, streaming: request.streaming, pool: PythonWorkerPool(environment: request.python))
        }
        let enhance = try enhancer(for: request, model: model)
        let items = try Self.items(request).enumerated().filter { request.shard.contains($0.offset) }.map(\.element)
        guard !items.isEmpty else { throw EnhancementError.noInput(reason: "shard \(request.shard) holds no clip") }
        try checkFolders(request)
        try checkFraming(request, first: items[0])
        try model.map { model throws(ModelError) in try checkRate(model.model, first: items[0]) }
        // One lock per shard: the N shards of one command (Slurm array tasks) write into one folder.
        let lock = try OutputLock(folder: request.output, shard: request.shard)
        defer { withExtendedLifetime(lock) {} }
        try EnhanceFolderClaim.claim(request.output, wanted: EnhanceFolderClaim(params: params(request), shards: request.shard.count),
                                     overwrite: request.overwrite)
        AtomicFile.removeStaleTemporaries(in: request.output)
        let lineage = Self.lineage(request, context: context)
        let trainRun = model.flatMap { trainingRun($0.model, catalog: context.catalog) }
        let beginParams = params(request).merging(lineage?.params(recorded: context.catalog != nil) ?? [:]) { old, _ in old }
            .merging(model?.params ?? [:]) { old, _ in old }
        let run = try RecordedRun.begin(context, kind: .enhance, name: context.name ?? request.method.description,
                                        params: beginParams, parent: trainRun ?? lineage?.parent)
        let result = try run.failing {
            let outcomes = ParallelMap.map(items, jobs: request.jobs, progress: progress) { item -> Outcome in
                do {
                    let channels = try item.noisyInfo().channels
                    let noisy = try item.read(item.noisy)
                    let stems = try item.clean.map { clean in (try item.read(clean), try item.read(item.noise!)) }
                    let samples = try enhance(noisy, stems?.0.samples, stems?.1.samples)
                    try FileManager.default.createDirectory(at: item.output.deletingLastPathComponent(), withIntermediateDirectories: true)
                    let written = try AudioWriter.write(AudioBuffer(samples: samples, sampleRate: noisy.sampleRate), to: item.output,
                                                        format: request.format.fileFormat)
                    return Outcome(channels: channels, clippedSamples: written.clippedSamples)
                } catch {
                    return Outcome(failure: "\(error)")
                }
            }
            let failures = zip(items, outcomes).compactMap { item, outcome in outcome.failure.map { (item.id, $0) } }
            try EnhanceRunMarker(catalog: context.catalog?.url.standardizedFileURL.path, runID: run.id, method: request.method.description)
                .write(in: request.output, shard: request.shard)
            try run.finish(params: ["clips_written": "\(items.count - failures.count)", "clips_failed": "\(failures.count)"]
                .merging(model?.measuredParams ?? [:]) { old, _ in old })
            let written = zip(items, outcomes).filter { $0.1.failure == nil }
            return Result(written: items.count - failures.count, failures: failures,
                          downmixed: written.filter { $0.1.channels > 1 }.map { ($0.0.id, $0.1.channels) },
                          clipped: written.filter { $0.1.clippedSamples > 0 }.map { ($0.0.id, $0.1.clippedSamples) })
        }
        return (result, run)
    }

    /// The enhancement of one clip: noisy buffer, clean and noise stems (oracle methods) → output.
    typealias Enhance = @Sendable (AudioBuffer, [Float]?, [Float]?) throws -> [Float]

    /// - Parameter model: the loaded model of a `.model` method.
    static func enhancer(for request: Request, model: ModelEnhancer?) throws -> Enhance {
        switch request.method {
        case .blind(let method):
            if let unused = request.blind.unused(by: method).first {
                // Named when the other noise estimate would use it (--mcra-* with the leading estimate).
                var other = request.blind
                other.noiseEstimate = other.noiseEstimate == .leading ? .mcra : .leading
                let byEstimate = !other.unused(by: method).contains { $0.name == unused.name }
                let estimate = byEstimate ? " with --noise-estimate \(request.blind.noiseEstimate.rawValue)" : ""
                throw EnhancementError.invalidParameter(name: unused.name, value: unused.value,
                                                        reason: "does nothing for --method \(method.rawValue)\(estimate); leave it out")
            }
            let enhancer = try BlindEnhancer(method: method, parameters: request.blind)
            return { noisy, _, _ in try enhancer.enhance(noisy.samples, sampleRate: noisy.sampleRate) }
        case .oracle(let mask):
            guard case .corpus = request.source else {
                throw EnhancementError.invalidParameter(name: "method", value: request.method.description,
                                                        reason: "an oracle mask needs the clean and noise stems of a corpus "
                                                            + "made by sekit mix; give --corpus")
            }
            guard request.lcDB.isFinite else {
                throw EnhancementError.invalidParameter(name: "lc-db", value: "\(request.lcDB)", reason: "must be a finite number of dB")
            }
            let enhancer = OracleMaskEnhancer(mask: mask, lcDB: request.lcDB)
            return { noisy, clean, noise in try enhancer.enhance(noisy: noisy.samples, clean: clean!, noise: noise!) }
        case .model(let file):
            guard let model else { throw ModelError.unreadable(path: file.path, reason: "not loaded") }
            return { noisy, _, _ in try model.enhance(noisy) }
        }
    }

    /// Refuses, before anything is written, a model for another sample rate than the first clip's.
    static func checkRate(_ model: ONNXModel, first: Item) throws(ModelError) {
        guard let rate = try? first.noisyInfo().sampleRate, rate != model.sampleRate else { return }
        throw .mismatch(path: model.url.path, reason: "the model is for \(model.sampleRate) Hz, but \(first.id) is \(rate) Hz; "
                        + "resample the inputs or use a model trained at \(rate) Hz")
    }

    /// The training run a model names (`train_run_id`), when it is in `catalog`.
    static func trainingRun(_ model: ONNXModel, catalog: Catalog?) -> RunID? {
        guard !model.trainRunID.isEmpty, let catalog, let record = try? catalog.run(model.trainRunID),
              record.id.rawValue == model.trainRunID else { return nil }
        return record.id
    }

    /// The clips of the request's source, in manifest or path order.
    static func items(_ request: Request) throws -> [Item] {
        switch request.source {
        case let .corpus(corpus, split):
            let all = try MixManifestRecord.corpusRecords(corpus, allowIncomplete: request.allowIncomplete).records
            let records = split.map { split in all.filter { $0.split == split } } ?? all
            guard !records.isEmpty else {
                throw EnhancementError.noInput(reason: "\(corpus.path): \(MixManifestRecord.noClipsReason(split: split, in: all))")
            }
            let stems = request.method.needsStems
            let audio = try MixCorpusAudio(corpus: corpus)
            return records.map { record in
                Item(id: record.clipID, noisy: corpus.appendingPathComponent(record.noisy),
                     clean: stems ? corpus.appendingPathComponent(record.clean) : nil,
                     noise: stems ? corpus.appendingPathComponent(record.noise) : nil,
                     output: request.output.appendingPathComponent(record.clipID + ".wav"), corpus: audio)
            }
        case .folder(let folder):
            let files = try ScorePairing.audioFiles(in: folder, option: "input")
            guard !files.isEmpty else { throw EnhancementError.noInput(reason: "\(folder.path) holds no audio files") }
            let items = files.map { relative in
                let output = request.output.appendingPathComponent((relative as NSString).deletingPathExtension + ".wav")
                return Item(id: relative, noisy: folder.appendingPathComponent(relative), clean: nil, noise: nil, output: output)
            }
            try refuseCollisions(items, folder: folder)
            return items
        }
    }

    /// Refuses, before anything is written, inputs that would be written to one output: `x.wav`,
    /// `x.ogg` and `x.flac` are all enhanced into `OUT/x.wav`, and only the last would be kept.
    static func refuseCollisions(_ items: [Item], folder: URL) throws {
        let byOutput = Dictionary(grouping: items, by: { $0.output.path })
        let collisions = byOutput.filter { $0.value.count > 1 }.map { (output: $0.key, inputs: $0.value.map(\.id).sorted()) }
            .sorted { $0.inputs[0] < $1.inputs[0] }
        guard let first = collisions.first else { return }
        let more = collisions.count > 1 ? " (and \(collisions.count - 1) more name\(collisions.count == 2 ? "" : "s") like it)" : ""
        throw EnhancementError.invalidParameter(name: "input", value: folder.path,
            reason: "\(first.inputs.joined(separator: ", ")) would all be written to \(first.output)\(more); " +
                    "rename them or enhance them from separate folders")
    }

    /// Refuses, before anything is written, blind-method settings that cannot frame the first
    /// clip (a `--frame-seconds` too short for its sample rate): they would fail every clip alike.
    /// A sample rate that cannot be framed stays a per-clip failure (other files may have others).
    static func checkFraming(_ request: Request, first: Item) throws {
        guard case .blind = request.method, let rate = try? first.noisyInfo().sampleRate else { return }
        do { _ = try EnhancementFraming(parameters: request.blind, sampleRate: rate) } catch {
            if error.invalidParameter != nil { throw error }
        }
    }

    /// Refuses an output folder inside the input folder, or holding it.
    static func checkFolders(_ request: Request) throws {
        let input: URL
        switch request.source {
        case .corpus(let corpus, _): input = corpus
        case .folder(let folder): input = folder
        }
        let inputPath = FilePaths.resolved(input.path), outputPath = FilePaths.resolved(request.output.path)
        let inside = FilePaths.isInside
        // A corpus may hold its enhanced outputs beside its own folders, but never in them.
        let corpusOwned = ["noisy", "clean", "noise"].map { FilePaths.resolved(input.appendingPathComponent($0).path) }
        if case .folder = request.source, inside(outputPath, inputPath) || inside(inputPath, outputPath) {
            throw EnhancementError.invalidParameter(name: "out", value: request.output.path,
                                                    reason: "is inside the input folder \(input.path) or holds it; write elsewhere")
        }
        if corpusOwned.contains(where: { inside(outputPath, $0) }) || inside(inputPath, outputPath) {
            throw EnhancementError.invalidParameter(name: "out", value: request.output.path,
                                                    reason: "would write into the corpus's own folders (\(input.path)); write elsewhere")
        }
    }

    /// The run's parameters (absolute paths; the blind method's settings by flag name).
    static func params(_ request: Request) -> [String: String] {
        var params = ["method": request.method.description, "out": request.output.standardizedFileURL.path,
                      "format": request.format.rawValue, "shard": request.shard.description]
        switch request.source {
        case let .corpus(corpus, split):
            params["corpus"] = corpus.standardizedFileURL.path
            if let split { params["split"] = split }
        case .folder(let folder):
            params["input"] = folder.standardizedFileURL.path
        }
        switch request.method {
        case .blind(let method):
            for (flag, value) in request.blind.recorded(for: method) { params[flag.replacingOccurrences(of: "-", with: "_")] = value }
        case .model(let file):
            params["method"] = "model"
            params["model"] = file.standardizedFileURL.path
            if request.streaming { params["streaming"] = "1" }
        case .oracle(let mask):
            let stft = OracleMaskEnhancer(mask: mask).stft
            params["n_fft"] = "\(stft.fftSize)"; params["hop_length"] = "\(stft.hopLength)"; params["window"] = stft.window.rawValue
            if mask == .ibm { params["lc_db"] = "\(request.lcDB)" }
        }
        return params
    }

    /// Where the run attaches: the corpus's mix run (``CorpusLineage``); nil for a folder of inputs.
    static func lineage(_ request: Request, context: RunContext) -> CorpusLineage? {
        guard case .corpus(let corpus, _) = request.source else { return nil }
        return CorpusLineage(corpus: corpus, catalog: context.catalog)
    }
}
