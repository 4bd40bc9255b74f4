import ArgumentParser
import Foundation
import SEKit

/// `sekit runs show`.
struct RunsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one run: provenance, parameters, artifacts, metrics, tags, per-step series, counts.",
        discussion: """
            The run: id, unique id prefix or name (a name of several runs is its latest finished run). \
            Per-step metrics (logged by `sekit runs log` or sekit.tracking) are listed one series a \
            line: steps, first, last, min and max with their steps.

            Formats: table (one item a line), csv (field, value rows named as in the filter language: \
            the run's fields, clips, clip_scores, sources, params.KEY, metrics.NAME.STAT, \
            metrics.NAME.STAT[SUBSET] for subsets, tags.KEY, metrics.KEY.steps|first|last|min|max for \
            per-step series) or json (the whole record, every step of every series; --json is the same).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: "The run: id, unique id prefix or name.")
    var id: String

    @OptionGroup var outputFormat: OutputFormatOptions

    func run() async throws {
        let details = try catalog.openForReading().runDetails(id)
        try outputFormat.print(details, text: { details.text }, table: { details.table })
    }
}
