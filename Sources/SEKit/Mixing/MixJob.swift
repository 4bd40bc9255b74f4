import Foundation

/// What `sekit mix` does, as one library entry point: prepare the mix (inputs found and
/// checked, plan fixed, output folder claimed), begin or reopen its catalogue run, render the
/// shard's clips, and record them.
public enum MixJob {
    /// Mixes `inputs` into `output` with `options` and records a `mix` run (reopened when the same
    /// command continues an interrupted mix in the same folder). Clips that cannot be made are
    /// counted in `clips_failed` and returned in the result; the run is `finished` (see
    /// ``RecordedRun``).
    /// - Parameters:
    ///   - params: the settings by flag name, recorded as the run's parameters (`-` becomes `_`).
    ///   - warn: called once per source left out, with the reason.
    /// - Throws: ``MixError`` for bad options, no usable sources or a folder holding another mix;
    ///   ``AudioError`` and ``CatalogError`` for failures that stop the run.
    public static func run(options: MixOptions, inputs: MixInputs, output: URL, shard: Shard = .whole, jobs: Int,
                           overwrite: Bool = false, params: [String: String], context: RunContext,
                           warn: (SkippedSource) -> Void = { _ in },
                           progress: @escaping ProgressHandler = { _, _ in }) throws -> (result: MixResult, run: RecordedRun) {
        let mix = try MixRun.prepare(options: options, inputs: inputs, output: output, shard: shard, jobs: jobs,
                                     catalogued: context.catalog.map(resolver), overwrite: overwrite, warn: warn)
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

    /// Resolves `corpus:NAME` inputs through the catalogue's imported sources.
    static func resolver(_ catalog: Catalog) -> MixRun.CataloguedCorpusResolver {
        { name, kind in
            let sourceKind = SourceKind(rawValue: kind.rawValue)!
            return try catalog.sources(kind: sourceKind, corpus: name).map { ($0.path, $0.relativePath, $0.speaker) }
        }
    }
}
