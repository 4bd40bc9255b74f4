import ArgumentParser
import Foundation
import SEKit

/// `sekit runs show`.
struct RunsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one run: provenance, parameters, artifacts, metrics, counts.",
        discussion: """
            Formats: table (one item a line), csv (field, value rows named as in the filter language: \
            the run's fields, clips, clip_scores, sources, params.KEY, metrics.NAME.STAT, and \
            metrics.NAME.STAT[SUBSET] for subsets) or json (the whole record; --json is the same).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: "Run id, or an unambiguous prefix of it.")
    var id: String

    @OptionGroup var outputFormat: OutputFormatOptions

    func run() async throws {
        let details = try catalog.openForReading().runDetails(id)
        try outputFormat.print(details, text: { details.text }, table: { details.table })
    }
}
