import Foundation

/// A mix ready to run: sources found and checked, plan fixed.
///
/// `prepare` resolves inputs and checks every source (readable, non-empty, not silent, long
/// enough); `run` renders the shard's clips in parallel, writes each stem atomically, journals
/// finished clips so an interrupted run resumes where it stopped, and writes the manifest in
/// clip order at the end. Output bytes depend only on the options, the sources and the seed.
public final class MixRun: @unchecked Sendable {
    public let planner: MixPlanner
    public let renderer: MixRenderer
    public let layout: MixCorpusLayout
    public let inputs: MixInputs
    public let skippedSources: [SkippedSource]
    let jobs: Int

    /// Inputs that start with this name a catalogued corpus (`corpus:NAME`).
    public static let corpusPrefix = "corpus:"

    /// Resolves a catalogued corpus name and kind to its files: (path, key inside the corpus, speaker).
    public typealias CataloguedCorpusResolver = (_ corpus: String, _ kind: MixSource.Kind) throws -> [(path: String, key: String,
                                                                                                       speaker: String?)]

    /// Shortest usable source, seconds.
    public static let minimumSourceSeconds = 0.1

    /// Finds and checks the sources and fixes the plan.
    /// - Parameters:
    ///   - extraSources: sources resolved elsewhere, added unchecked.
    ///   - catalogued: resolves an input `corpus:NAME` to the catalogue's files of that corpus and
    ///     kind (path, key = path inside the corpus, speaker); nil when no catalogue is open.
    ///   - warn: called once per skipped source.
    /// - Throws: ``MixError`` for bad options, no usable sources, or an output folder that holds
    ///   a different mix.
    public static func prepare(
        options: MixOptions, inputs: MixInputs, output: URL, shard: Shard = .whole, jobs: Int,
        extraSources: [MixSource] = [], catalogued: CataloguedCorpusResolver? = nil, overwrite: Bool = false,
        archive: MixArchiveRequest? = nil, warn: (SkippedSource) -> Void = { _ in }
    ) throws -> MixRun {
        var options = options
        // A native-rate mix is checked once its speech rates are known (the highest is its `sampleRate`).
        if !options.isNativeRate { try options.validate() }
        let pattern = try inputs.speakerPattern.map { text in
            do { return try NSRegularExpression(pattern: text) } catch {
                throw MixError.invalidOption(name: "speaker-pattern", value: text, reason: "not a regular expression")
            }
        }
        let outputPath = FilePaths.resolved(output.path)
        var skipped: [SkippedSource] = []
        var byKind: [MixSource.Kind: [MixSource]] = [:]
        for (kind, list) in [(MixSource.Kind.speech, inputs.speech), (.noise, inputs.noise), (.rir, inputs.rir)] {
            var candidates: [(path: String, key: String)] = []
            var cataloguedSpeakers: [String: String] = [:]
            // What `--speaker-pattern` is matched against: the path relative to the folder given (a list's
            // line as written, a single file's name, a catalogued file's key), as `catalog import` matches.
            var speakerPaths: [String: String] = [:]
            for input in list {
                guard input.hasPrefix(Self.corpusPrefix) else {
                    // An output inside an input folder would feed this mix's stems to the next mix
                    // from that folder.
                    let inputPath = FilePaths.resolved(input)
                    if FilePaths.isInside(outputPath, inputPath) {
                        throw MixError.invalidOption(name: "out", value: output.path,
                            reason: "is inside the \(kind.rawValue) input \(input); "
                                + "the next mix from that folder would take these stems as \(kind.rawValue)")
                    }
                    let found = try SourceDiscovery.files(in: input, option: kind.rawValue, problem: { path, reason in
                        let unlisted = SkippedSource(kind: kind, path: path, reason: reason + "; left out")
                        warn(unlisted)
                        skipped.append(unlisted)
                    })
                    var isFolder: ObjCBool = false
                    let folder = FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) && isFolder.boolValue
                    for file in found {
                        // A folder's keys are `<folder name>/<path inside it>`: the pattern sees the part inside.
                        speakerPaths[file.path] = folder ? String(file.key.drop { $0 != "/" }.dropFirst()) : file.key
                    }
                    candidates += found
                    continue
                }
                let name = String(input.dropFirst(Self.corpusPrefix.count))
                guard let catalogued else {
                    throw MixError.invalidOption(name: kind.rawValue, value: input,
                                                 reason: "catalogued corpora need a catalogue, and none is open")
                }
                let files = try catalogued(name, kind)
                guard !files.isEmpty else {
                    throw MixError.invalidOption(name: kind.rawValue, value: input,
                                                 reason: "the catalogue has no \(kind.rawValue) files in corpus '\(name)' "
                                                     + "(import them with `sekit catalog import`)")
                }
                for file in files.sorted(by: { $0.key < $1.key }) {
                    // The corpus name without its `where` filter (``CuratedSources``).
                    candidates.append((file.path, (try CuratedSources.parse(name, option: kind.rawValue)).name + "/" + file.key))
                    speakerPaths[file.path] = file.key
                    if let speaker = file.speaker { cataloguedSpeakers[file.path] = speaker }
                }
            }
            if let inside = candidates.first(where: { FilePaths.isInside(FilePaths.resolved($0.path), outputPath) }) {
                throw MixError.invalidOption(name: kind.rawValue, value: inside.path,
                    reason: "is inside the output folder \(output.path) (an earlier mix's stem?); inputs and output must not overlap")
            }
            let checked = SourceCheck.check(candidates, kind: kind, sampleRate: options.sampleRate, jobs: jobs,
                                            minimumSeconds: minimumSourceSeconds)
            if kind == .rir { try RIRCheck.refuseUnusable(checked, candidates: candidates, options: options) }
            for bad in checked.skipped { warn(bad) }
            skipped += checked.skipped
            byKind[kind] = checked.usable.map { source in
                var s = source
                if let pattern { s.speaker = SourceDiscovery.speaker(in: speakerPaths[s.path] ?? s.path, pattern: pattern) }
                else if let speaker = cataloguedSpeakers[s.path] { s.speaker = speaker }
                return s
            }
        }
        for source in extraSources { byKind[source.kind, default: []].append(source) }
        for kind in [MixSource.Kind.speech, .noise] where (byKind[kind] ?? []).isEmpty {
            throw MixError.noUsableSources(kind: kind.rawValue, skipped: skipped.filter { $0.kind == kind }.count)
        }
        if !inputs.rir.isEmpty && (byKind[.rir] ?? []).isEmpty {
            throw MixError.noUsableSources(kind: "rir", skipped: skipped.filter { $0.kind == .rir }.count)
        }
        if options.isNativeRate { options.sampleRate = byKind[.speech]!.map(\.sampleRate).max()! }
        try RIRCheck.refuseLonger(byKind[.rir] ?? [], than: byKind[.speech]!, options: options)
        let layout = MixCorpusLayout(root: output, shard: shard)
        let planner = try MixPlanner(options: MixSpecFile.resumedOptions(options, layout: layout),
                                     speech: byKind[.speech]!, noise: byKind[.noise]!, rirs: byKind[.rir] ?? [])
        return try claim(planner: planner, output: output, shard: shard, inputs: inputs, skipped: skipped, jobs: jobs,
                         overwrite: overwrite, archive: archive)
    }

    /// A mix of exactly the clips the manifest at `manifest` lists, from its recorded fields
    /// (``MixManifestPlans``): every clip and source checked before the folder is claimed.
    /// - Parameter note: told of sources that cannot be verified.
    /// - Throws: ``MixError`` naming the manifest line, clip or source at fault, or a folder holding another mix.
    public static func prepare(fromManifest manifest: URL, output: URL, shard: Shard = .whole, jobs: Int, overwrite: Bool = false,
                               archive: MixArchiveRequest? = nil, note: (String) -> Void = { _ in }) throws -> MixRun {
        if FilePaths.isInside(FilePaths.resolved(manifest.path), FilePaths.resolved(output.path)) {
            throw MixError.invalidOption(name: "out", value: output.path,
                                         reason: "holds the manifest \(manifest.path); render it into another folder")
        }
        let planner = try MixManifestPlans.planner(manifest: manifest, jobs: max(1, jobs), note: note)
        let sources = planner.speech + planner.noise + planner.rirs
        if let inside = sources.first(where: { FilePaths.isInside(FilePaths.resolved($0.path), FilePaths.resolved(output.path)) }) {
            throw MixError.invalidOption(name: "out", value: output.path, reason: "holds the \(inside.kind.rawValue) source \(inside.path) "
                                         + "the manifest names; inputs and output must not overlap")
        }
        if archive != nil && planner.clipIndices != Array(0..<planner.clipCount) {
            throw MixError.invalidOption(name: "archive", value: archive!.format.rawValue,
                reason: "archive shards hold clips 0 to N-1 in order, and \(manifest.path) lists other clip indices; "
                    + "render it as files (without --archive)")
        }
        let inputs = MixInputs(speech: [], noise: [], rir: [])
        return try claim(planner: planner, output: output, shard: shard, inputs: inputs, skipped: [], jobs: jobs,
                         overwrite: overwrite, archive: archive)
    }

    /// Claims the output folder for `planner`'s mix (its lock, `mix.json`, the archive layout) and
    /// returns the run, ready to render.
    /// - Throws: ``MixError/outputConflict(path:reason:)`` for a folder holding another mix or shard kind.
    static func claim(planner: MixPlanner, output: URL, shard: Shard, inputs: MixInputs, skipped: [SkippedSource], jobs: Int,
                      overwrite: Bool, archive: MixArchiveRequest?) throws -> MixRun {
        let layout = MixCorpusLayout(root: output, shard: shard)
        // One process per shard of a folder, from claiming it to the manifest (N shards of one
        // command may write into one folder at once; the same shard twice may not).
        let lock = try OutputLock(output: shard == .whole ? output.path : "\(output.path) (shard \(shard))", lockFile: layout.lockFile)
        // The catalogue runs of the corpus now in the folder, read before an overwrite removes them.
        let existing = MixCatalogRunState.all(in: output)
        let archiveLayout = try archive.map { try $0.layout(clipCount: planner.clipCount, shard: shard) }
        var replaced = try MixSpecFile.claim(layout: layout, planner: planner, overwrite: overwrite)
        replaced = try MixArchiveClaim.claim(layout: layout, archive: archiveLayout, replaced: replaced, overwrite: overwrite) || replaced
        return MixRun(planner: planner, layout: layout, inputs: inputs, skipped: skipped, jobs: jobs, lock: lock,
                      replacedRuns: replaced ? existing : [], archive: archiveLayout)
    }

    /// This shard's claim on the output folder, held as long as the run exists.
    private let lock: OutputLock
    /// Catalogue runs of a different mix this one replaced in the folder (`overwrite`).
    public let replacedRuns: [MixCatalogRunState]

    /// How the clips are stored: archive shards, or nil for files under noisy/, clean/, noise/.
    public let archive: MixArchiveLayout?

    private init(planner: MixPlanner, layout: MixCorpusLayout, inputs: MixInputs, skipped: [SkippedSource], jobs: Int, lock: OutputLock,
                 replacedRuns: [MixCatalogRunState], archive: MixArchiveLayout?) {
        self.lock = lock
        self.archive = archive
        self.replacedRuns = replacedRuns
        self.planner = planner
        self.renderer = MixRenderer(planner: planner)
        self.layout = layout
        self.inputs = inputs
        self.skippedSources = skipped
        self.jobs = max(1, jobs)
    }

    /// Clip indices this shard owns, in order (with archives, the clips of the archive shards it owns).
    public var shardIndices: [Int] {
        guard let archive else { return planner.clipIndices.filter(layout.shard.contains) }
        return archiveShards.flatMap { archive.clips(ofShard: $0) }
    }

    /// Renders and writes every clip of the shard not already done.
    /// - Parameter progress: called with (clips done, clips in shard) as clips finish.
    public func run(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> MixResult {
        if archive != nil { return try runArchive(progress: progress) }
        let fm = FileManager.default
        for folder in [layout.noisyFolder, layout.cleanFolder, layout.noiseFolder, layout.stateFolder] {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        // Temporary files left by a killed run are incomplete by construction: remove this shard's
        // (other shards may be writing into the same folder right now).
        let mine = Set(shardIndices.map { planner.clipID(index: $0) })
        for folder in [layout.noisyFolder, layout.cleanFolder, layout.noiseFolder] {
            for name in try fm.contentsOfDirectory(atPath: folder.path) where name.hasPrefix(".") && name.contains(".wav.tmp-") {
                let clipID = String(name.dropFirst().prefix { $0 != "." })
                if mine.contains(clipID) { try? fm.removeItem(at: folder.appendingPathComponent(name)) }
            }
        }
        // Killed inside an atomic write of mix.json or of this shard's manifest (other shards'
        // files are theirs to clean).
        AtomicFile.removeStaleTemporaries(in: layout.root, named: layout.specFile.lastPathComponent)
        AtomicFile.removeStaleTemporaries(in: layout.root, named: layout.manifest.lastPathComponent)
        let journal = try MixJournal(url: layout.journal)
        let indices = shardIndices
        var done = journal.records.filter { record in
            let paths = MixCorpusLayout.relativePaths(clipID: record.clipID)
            return [paths.noisy, paths.clean, paths.noise].allSatisfy { fm.fileExists(atPath: layout.root.appendingPathComponent($0).path) }
        }
        let doneIndices = Set(done.map(\.index))
        let todo = indices.filter { !doneIndices.contains($0) }
        let resumed = indices.count - todo.count
        progress(resumed, indices.count)

        // Every clip's bytes depend only on its index, so the order clips finish in does not
        // matter; each is journalled as soon as its stems are written (an interrupted run resumes
        // from the journal). A clip that cannot be made is a per-clip failure; anything else
        // (the journal cannot be written) stops the run.
        let journalLock = NSLock()
        let total = indices.count
        let outcomes = try ParallelMap.map(todo, jobs: jobs, progress: { done, _ in progress(resumed + done, total) }) {
            index -> Result<(record: MixManifestRecord, line: Data), MixClipFailure> in
            let record: MixManifestRecord
            switch try clipOutcome(index, { clip in try writeClip(clip) }) {
            case .success(let made): record = made
            case .failure(let failure): return .failure(failure)
            }
            let line = try journal.line(for: record)  // encoded once: journal, then manifest
            try journalLock.withLock { try journal.append(line: line) }
            return .success((record, line))
        }
        var lines = journal.lines  // clip index → its manifest line
        var fresh: [MixManifestRecord] = [], failures: [(Int, String)] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let made): fresh.append(made.record); lines[made.record.index] = made.line
            case .failure(let failure): failures.append((failure.index, failure.reason))
            }
        }
        done += fresh
        done.sort { $0.index < $1.index }
        try MixSpecFile.writeManifest(done, lines: lines, to: layout.manifest)
        return MixResult(
            written: fresh.count, resumed: resumed, failures: failures.sorted { $0.0 < $1.0 },
            skippedSources: skippedSources, records: done, layout: layout,
            audioSeconds: done.reduce(0) { $0 + $1.durationSeconds }, latePeakRIRs: latePeakRIRs(of: done),
            rirAlignment: planner.options.rirAlignment ?? .peak)
    }

    /// The RIRs the clips of `records` use whose peak comes more than
    /// ``RIRAlignment/latePeakSeconds`` after their first arrival (sorted paths).
    private func latePeakRIRs(of records: [MixManifestRecord]) -> [String] {
        let used = Set(records.compactMap(\.rir))
        return planner.rirs.filter { used.contains($0.path) }.filter { source in
            guard let samples = try? renderer.sources.samples(of: source) else { return false }
            return RIRAlignment.hasLatePeak(samples, sampleRate: planner.options.sampleRate)
        }.map(\.path).sorted()
    }

    /// Renders clip `index` and hands it to `write`; a clip that cannot be made (or written) is
    /// a per-clip failure, anything else stops the run.
    func clipOutcome<T>(_ index: Int, _ write: (RenderedClip) throws -> T) throws -> Result<T, MixClipFailure> {
        do {
            return .success(try write(try renderer.render(index: index)))
        } catch MixError.clipFailed(_, let reason) {
            return .failure(MixClipFailure(index: index, reason: reason))  // listed as "clip N: reason", not "clip N: clip N: ..."
        } catch let error as MixError {
            return .failure(MixClipFailure(index: index, reason: error.description))
        } catch let error as CorpusError {  // e.g. a clip too large for a tar member
            return .failure(MixClipFailure(index: index, reason: error.description))
        } catch let error as AudioError {
            return .failure(MixClipFailure(index: index, reason: error.description))
        }
    }

    /// Writes the three stems of a rendered clip (each atomically) and returns its manifest record.
    private func writeClip(_ clip: RenderedClip) throws -> MixManifestRecord {
        let rate = planner.sampleRate(of: clip.plan)
        let paths = MixCorpusLayout.relativePaths(clipID: clip.plan.clipID)
        // Noise and clean first, noisy last: a clip counts as done only when all three exist.
        let root = layout.root.path + "/"
        switch clip.stems {
        case let .pcm16(noisy, clean, noise):
            for (stem, path) in [(noise, paths.noise), (clean, paths.clean), (noisy, paths.noisy)] {
                try AudioWriter.writePCM16(codes: stem, sampleRate: rate, toPath: root + path)
            }
        case let .float32(noisy, clean, noise):
            for (samples, path) in [(noise, paths.noise), (clean, paths.clean), (noisy, paths.noisy)] {
                try AudioWriter.writeFloat32(samples: samples, sampleRate: rate, toPath: root + path)
            }
        }
        return manifestRecord(clip)
    }

    /// The manifest record of a rendered clip (its stems named as the folder layout names them).
    func manifestRecord(_ clip: RenderedClip) -> MixManifestRecord {
        let options = planner.options
        let plan = clip.plan
        let paths = MixCorpusLayout.relativePaths(clipID: plan.clipID)
        return MixManifestRecord(
            clipID: plan.clipID, index: plan.index, split: plan.split,
            noisy: paths.noisy, clean: paths.clean, noise: paths.noise,
            sampleRate: planner.sampleRate(of: plan), numSamples: plan.length,
            durationSeconds: Double(plan.length) / Double(planner.sampleRate(of: plan)),
            speechSources: plan.speech.map { piece in
                let source = planner.speech[piece.source]
                return .init(path: source.path, offset: piece.offset, length: piece.length, position: piece.position,
                             speaker: source.speaker)
            },
            noiseSources: zip(plan.noises, clip.noiseGains).map { piece, gain in
                .init(path: planner.noise[piece.source].path, offset: piece.offset, snrDB: piece.snrDB, gain: gain)
            },
            rir: plan.rir.map { planner.rirs[$0].path },
            target: plan.rir == nil ? "dry" : options.target.rawValue,
            snrMode: options.snrMode.rawValue, snrDBRequested: plan.snrDB, snrDBRealised: clip.snrDBRealised,
            levelMode: options.levelMode.rawValue, levelDBFS: plan.levelDBFS, levelDBFSRealised: clip.levelDBFSRealised,
            speechGain: clip.speechGain, clippingScale: clip.clippingScale, clippedSamples: clip.clippedSamples,
            lowpassHz: plan.lowpassHz, seed: plan.seed, degradations: clip.degradations, rirOnsetSamples: clip.rirOnsetSamples,
            wind: plan.wind.map { .init(snrDB: $0.snrDB, seed: $0.seed, gustiness: WindNoise.parameters(seed: $0.seed).gustiness) })
    }
}
