import Foundation

/// What `OUT/.sekit/catalog-run*.json` holds: the catalogue run that records a mix shard.
public struct MixCatalogRunState: Codable, Sendable, Equatable {
    /// Absolute path of the catalogue file.
    public var catalog: String
    public var runID: RunID
    public var shard: Shard
    /// SHA-256 of `mix.json` when the run began: a different mix written over the folder
    /// (`--overwrite`) starts a new run instead of reopening this one.
    public var specSHA256: String?

    enum CodingKeys: String, CodingKey { case catalog, runID = "run_id", shard, specSHA256 = "spec_sha256" }

    /// Every shard's state in a corpus folder (empty when the mix was not catalogued).
    public static func all(in root: URL) -> [MixCatalogRunState] {
        let folder = MixCorpusLayout(root: root).stateFolder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("catalog-run") && $0.hasSuffix(".json") }.sorted().compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
            return try? JSONDecoder().decode(MixCatalogRunState.self, from: data)
        }
    }
}

/// Records a mix in the catalogue: a `mix` run with its parameters, the sources its clips use,
/// and one `clips` row (plus `clip_noises`, `clip_degradations` and `clip_degradation_params` rows) per clip.
///
/// The run id is kept in the corpus folder (``MixCorpusLayout/catalogRunFile``): running the same
/// command again after an interruption reopens that run instead of starting another, so the
/// catalogue ends up with exactly the clips in the folder. Catalogue clip ids are
/// `RUN/CLIP` (the clip id alone is derived from seed and index and repeats across corpora
/// mixed with the same seed).
public struct MixCatalogRecorder: Sendable {
    /// The run's lifecycle (begin or reopen, finish, fail).
    public let run: RecordedRun
    public let layout: MixCorpusLayout
    public var catalog: Catalog { run.catalog! }
    public var runID: RunID { run.id! }
    /// Whether an earlier run was reopened.
    public var reopened: Bool { run.reopened }

    /// The catalogue id of a clip of run `run`.
    public static func catalogClipID(run: RunID, clipID: String) -> String { "\(run.rawValue)/\(clipID)" }

    /// Starts the mix's run, or reopens the one an earlier invocation into the same folder began.
    /// - Parameters:
    ///   - params: the mix settings by name (flag names; `-` becomes `_` in the catalogue).
    ///   - name: the run's name (default: the output folder's name).
    public static func begin(catalog: Catalog, mix: MixRun, commandLine: [String], params: [String: String],
                             name: String? = nil) throws -> MixCatalogRecorder {
        let layout = mix.layout
        let catalogPath = catalog.url.standardizedFileURL.path
        let spec = try? SHA256.hex(ofFileAt: layout.specFile)
        var values = Dictionary(uniqueKeysWithValues: params.map { ($0.key.replacingOccurrences(of: "-", with: "_"), $0.value) })
        values["out"] = layout.root.standardizedFileURL.path
        values["shard"] = layout.shard.description
        values["clips_planned"] = "\(mix.planner.clipCount)"
        if mix.planner.manifest == nil { values[SNRSubsetRule.recordKey] = mix.planner.options.snrSubsetRule.rawValue }
        if let data = try? Data(contentsOf: layout.catalogRunFile),
           let state = try? JSONDecoder().decode(MixCatalogRunState.self, from: data),
           state.catalog == catalogPath, state.shard == layout.shard, state.specSHA256 == spec,
           let run = try RecordedRun.reopen(state.runID, in: catalog, params: values) {
            return MixCatalogRecorder(run: run, layout: layout)
        }
        let context = RunContext(catalog: catalog, commandLine: commandLine, name: name)
        let run = try RecordedRun.begin(context, kind: .mix, name: layout.root.standardizedFileURL.lastPathComponent, params: values)
        try run.failing {
            try FileManager.default.createDirectory(at: layout.stateFolder, withIntermediateDirectories: true)
            let state = MixCatalogRunState(catalog: catalogPath, runID: run.id!, shard: layout.shard, specSHA256: spec)
            try AtomicFile.write(try JSONEncoder().encode(state), to: layout.catalogRunFile)
            // A different mix written over the folder: the old run's clip rows describe files that
            // now hold other audio.
            for replaced in mix.replacedRuns where replaced.catalog == catalogPath && replaced.runID != run.id {
                try catalog.supersede(run: replaced.runID, by: run.id!)
            }
        }
        return MixCatalogRecorder(run: run, layout: layout)
    }

    /// Records the clips of a finished shard (those already recorded are kept), the manifest as an
    /// artifact, the skipped sources and failures as parameters, and ends the run `finished`
    /// (clips that could not be made are counted in `clips_failed` and listed in `failures`;
    /// see ``RecordedRun`` for the status policy).
    public func finish(_ result: MixResult, planner: MixPlanner) throws {
        var used: [Catalog.UsedFile] = []
        for source in planner.speech { used.append(Self.usedFile(source, kind: .speech)) }
        for source in planner.noise { used.append(Self.usedFile(source, kind: .noise)) }
        for source in planner.rirs { used.append(Self.usedFile(source, kind: .rir)) }
        let neededPaths = Set(result.records.flatMap { r in
            r.speechSources.map(\.path) + r.noiseSources.map(\.path) + (r.rir.map { [$0] } ?? [])
        })
        let ids = try catalog.sourceIDs(registering: used.filter { neededPaths.contains($0.path) }, run: runID)
        var clips: [ClipRecord] = []
        var noises: [ClipNoiseRecord] = []
        var degradations: (degradations: [ClipDegradationRecord], params: [ClipDegradationParamRecord]) = ([], [])
        for record in result.records {
            let id = Self.catalogClipID(run: runID, clipID: record.clipID)
            let rate = Double(record.sampleRate)  // the clip's own (`--sample-rate native`)
            let speech = record.speechSources.first
            clips.append(ClipRecord(
                id: id, runID: runID, clipIndex: record.index, split: record.split,
                speechSourceID: speech.flatMap { ids[$0.path] }, speechOffsetSeconds: speech.map { Double($0.offset) / rate },
                rirSourceID: record.rir.flatMap { ids[$0] }, snrRequestedDB: record.snrDBRequested,
                snrRealisedDB: record.snrDBRealised.isFinite ? record.snrDBRealised : nil,
                levelDBFS: record.levelDBFSRealised.isFinite && record.levelDBFSRealised <= 0 ? record.levelDBFSRealised : nil,
                speechGain: record.speechGain, noiseGain: record.noiseSources.first?.gain,
                clippingScale: record.clippingScale, seed: Int64(bitPattern: record.seed),
                sampleRate: record.sampleRate, durationSeconds: record.durationSeconds,
                noisyPath: layout.root.appendingPathComponent(record.noisy).path,
                cleanPath: layout.root.appendingPathComponent(record.clean).path,
                noisePath: layout.root.appendingPathComponent(record.noise).path))
            let rows = ClipDegradationRecord.rows(clipID: id, degradations: record.degradations ?? [])
            degradations.degradations += rows.degradations
            degradations.params += rows.params
            for (position, noise) in record.noiseSources.enumerated() {
                guard let sourceID = ids[noise.path] else { continue }
                noises.append(ClipNoiseRecord(clipID: id, position: position, sourceID: sourceID,
                                              offsetSeconds: Double(noise.offset) / rate, gain: noise.gain))
            }
        }
        try catalog.insertClips(clips, noises: noises, degradations: degradations, onConflict: .skipExisting)
        try catalog.recordArtifact(run: runID, fileAt: layout.manifest, kind: "mix-manifest")
        var params = ["clips_written": "\(result.written)", "clips_resumed": "\(result.resumed)",
                      "clips_failed": "\(result.failures.count)", "skipped_sources": "\(result.skippedSources.count)",
                      "audio_seconds": "\(result.audioSeconds)"]
        if !planner.rirs.isEmpty {
            params["rir_alignment"] = result.rirAlignment.rawValue
            params["rirs_late_peak"] = "\(result.latePeakRIRs.count)"
        }
        if !result.skippedSources.isEmpty {
            params["skipped"] = result.skippedSources.map { "\($0.kind.rawValue) \($0.path): \($0.reason)" }.joined(separator: "\n")
        }
        if !result.failures.isEmpty {
            params["failures"] = result.failures.map { "clip \($0.index): \($0.reason)" }.joined(separator: "\n")
        }
        // The corpus as a record once its manifests hold every clip it planned (for a sharded mix, when
        // the last shard finishes), made by the mix runs its folder names, wherever they were recorded.
        if (try? MixManifestRecord.corpusRecords(layout.root, allowIncomplete: false)) != nil,
           let identity = try CorpusIdentity.of(folder: layout.root) {
            try catalog.recordCorpus(identity, folder: layout.root, mixRuns: MixCatalogRunState.all(in: layout.root).map(\.runID))
        }
        try run.finish(params: params)
    }

    /// Ends the run as failed with `error` (the mix stopped before finishing).
    public func fail(_ error: Error) { run.fail(error) }

    /// A mix source as a catalogue file: corpus = the first part of its key (the folder or
    /// catalogued corpus it came from), relative path = the rest.
    static func usedFile(_ source: MixSource, kind: SourceKind) -> Catalog.UsedFile {
        let parts = source.key.split(separator: "/", maxSplits: 1)
        let corpus = parts.count == 2 ? String(parts[0]) : "files"
        let relative = parts.count == 2 ? String(parts[1]) : source.key
        return Catalog.UsedFile(path: source.path, kind: kind, corpus: corpus, relativePath: relative, speaker: source.speaker)
    }
}
