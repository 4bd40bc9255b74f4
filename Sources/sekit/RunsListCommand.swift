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
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: ArgumentHelp("Filter expression over runs.", valueName: "expr"))
    var filter: String?

    @Option(help: "Output format: table, csv or json.")
    var format: TableFormat = .table

    @Option(help: "At most this many runs.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be >= 0, got \(limit)") }
    }

    func run() async throws {
        try catalog.open(create: false).exportRuns(filter: filter, format: format, limit: limit, sink: writeToStandardOutput)
    }
}
