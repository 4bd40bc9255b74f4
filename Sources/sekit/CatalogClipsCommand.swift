import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog clips`: list clips, filtered.
struct CatalogClipsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clips",
        abstract: "List clips, optionally filtered, as a table, CSV or JSON.",
        discussion: """
            Filter fields: \(CatalogFilter.fieldNames(for: .clips).joined(separator: ", ")), \
            params.KEY (the clip's run's parameters), metrics.NAME.mean|std|n|ci95_low|ci95_high. \
            Example: --filter "split = 'test' and snr_realised_db >= 0 and snr_realised_db < 5"
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: ArgumentHelp("Filter expression (and, or, not, = != < <= > >=, like, in (...), is null).", valueName: "expr"))
    var filter: String?

    @Option(help: "Output format: table, csv or json.")
    var format: TableFormat = .table

    @Option(help: "At most this many clips.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be >= 0, got \(limit)") }
    }

    func run() async throws {
        let store = try catalog.open(create: false)
        try store.exportClips(filter: filter, format: format, limit: limit, sink: writeToStandardOutput)
    }
}
