import Foundation

/// What `sekit mix` does, as one library entry point: prepare the mix (inputs found and
/// checked, plan fixed, output folder claimed), begin or reopen its catalogue run, render the
/// shard's clips, and record them.
public enum MixJob {
    /// What to mix, where, and how.
    public struct Request: Sendable {
        /// The mixer's settings (SNRs, levels, stages, seed, count, ...).
        public var options: MixOptions
        /// Speech, noise and room sources (folders, files or `corpus:NAME`).
        public var inputs: MixInputs
        /// The corpus folder.
        public var output: URL
        /// The clips this process makes (`--shard i/N`).
        public var shard: Shard = .whole
        /// Worker threads (the output does not depend on it).
        public var jobs = 1
        /// Replace a finished mix in `output` (`--overwrite`).
        public var overwrite = false
        /// Write the clips as archive shards (`--archive`, `--archive-clips`) rather than files.
        public var archive: MixArchiveRequest?
        /// The settings by flag name, recorded as the run's parameters (`-` becomes `_`).
        public var params: [String: String] = [:]
        /// Render exactly the clips this manifest lists (`--from-manifest`); `options` and `inputs`
        /// are then unused (the settings come from the `mix.json` beside the manifest).
        public var fromManifest: URL?

        public init(options: MixOptions, inputs: MixInputs, output: URL) {
            self.options = options; self.inputs = inputs; self.output = output
        }
    }

    /// Mixes the request's inputs into its output and records a `mix` run (reopened when the same
    /// command continues an interrupted mix in the same folder). Clips that cannot be made are
    /// counted in `clips_failed` and returned in the result; the run is `finished` (see
    /// ``RecordedRun``).
    /// - Parameters:
    ///   - warn: called once per source left out, with the reason.
    ///   - note: called with warnings that leave nothing out (a manifest's sources that cannot be verified).
    ///   - curated: called once per input that selected from an analysed corpus (``CuratedSources``).
    /// - Throws: ``MixError`` for bad options, no usable sources or a folder holding another mix;
    ///   `AudioError` and `CatalogError` for failures that stop the run.
    public static func run(_ request: Request, context: RunContext, warn: (SkippedSource) -> Void = { _ in },
                           note: (String) -> Void = { _ in },
                           curated: (CuratedSources.Selection) -> Void = { _ in },
                           progress: @escaping ProgressHandler = { _, _ in }) throws -> (result: MixResult, run: RecordedRun) {
        let mix: MixRun
        var params = request.params
        if let manifest = request.fromManifest {
            mix = try MixRun.prepare(fromManifest: manifest, output: request.output, shard: request.shard, jobs: request.jobs,
                                     overwrite: request.overwrite, archive: request.archive, note: note)
            params["from-manifest"] = manifest.path
            params["from-manifest-sha256"] = mix.planner.manifest?.sha256
        } else {
            let sources = context.catalog.map { CuratedSources(catalog: $0, jobs: request.jobs) }
            mix = try MixRun.prepare(options: request.options, inputs: request.inputs, output: request.output,
                                     shard: request.shard, jobs: request.jobs,
                                     catalogued: sources.map { s in { try s.resolve($0, kind: $1) } },
                                     overwrite: request.overwrite, archive: request.archive, warn: warn)
            for selection in sources?.selections ?? [] { curated(selection) }
            params = params.merging(sources?.runParams ?? [:]) { _, curated in curated }
        }
        guard let catalog = context.catalog else {
            let run = try RecordedRun.begin(.unrecorded, kind: .mix, name: "", params: [:])
            return (try mix.run(progress: progress), run)
        }
        let recorder = try MixCatalogRecorder.begin(catalog: catalog, mix: mix, commandLine: context.commandLine,
                                                    params: params, name: context.name)
        let result = try recorder.run.failing {
            let result = try mix.run(progress: progress)
            try recorder.finish(result, planner: mix.planner)
            return result
        }
        return (result, recorder.run)
    }
}
