import ArgumentParser
import Foundation
import SEKit

/// `sekit runs list`.
struct RunsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List runs, newest first or in the order asked for, optionally filtered.",
        discussion: """
            Filter fields: \(CatalogFilter.fieldNames(for: .runs).joined(separator: ", ")), params.KEY, \
            lineage.params.KEY (the run's or any ancestor's: a score run's enhance and mix runs), \
            lineage.KIND.KEY (its ancestor of that kind: lineage.mix.seed, lineage.train.seed), tags.KEY, \
            metrics.NAME.mean|std|n|ci95_low|ci95_high (aggregates of a score run), \
            metrics.NAME.last|first|min|max|steps (per-step metrics of a run made elsewhere). Example: \
            --filter "kind = 'score' and metrics.stoi.mean > 0.8 and lineage.params.noise_estimate = 'mcra'"

            --columns adds fields as columns, comma-separated, before command_line (sorting and \
            columns take the nearest run's value of lineage.params.KEY). Example: \
            --columns params.lr,metrics.valid_stoi.last

            --order-by takes the same fields, comma-separated, each followed by asc or desc (default \
            asc); runs missing a field sort last; ties keep newest first; a field that is not a \
            column of the listing is shown as a column of its own, before command_line. Example: \
            --order-by "metrics.stoi.mean desc, params.epoch"

            \(ListingOptions.formatsHelp)
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: ArgumentHelp("Only runs of this kind.", valueName: "kind"))
    var kind: RunKind?

    @Option(name: .customLong("order-by"), help: ArgumentHelp("Sort by these fields (FIELD [asc|desc], comma-separated).",
                                                              valueName: "fields"))
    var orderBy: String?

    @Option(help: ArgumentHelp("Also show these fields as columns (comma-separated).", valueName: "fields"))
    var columns: String?

    @OptionGroup var listing: ListingOptions

    func run() async throws {
        try catalog.openForReading().exportRuns(kind: kind, filter: listing.filter, orderBy: orderBy, columns: columns,
                                                format: listing.outputFormat.resolved, limit: listing.limit, sink: writeToStandardOutput)
    }
}
