import ArgumentParser
import Foundation
import SEKit

/// `sekit runs list`.
struct RunsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List runs, newest first, optionally filtered.",
        discussion: """
            Filter fields: \(CatalogFilter.fieldNames(for: .runs).joined(separator: ", ")), params.KEY, \
            metrics.NAME.mean|std|n|ci95_low|ci95_high. Example: \
            --filter "kind = 'score' and metrics.stoi.mean > 0.8 and params.checkpoint like 'crn%'"

            \(ListingOptions.formatsHelp)
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @OptionGroup var listing: ListingOptions

    func run() async throws {
        try catalog.openForReading().exportRuns(filter: listing.filter, format: listing.outputFormat.resolved, limit: listing.limit, sink: writeToStandardOutput)
    }
}
