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

            \(ListingOptions.formatsHelp)
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @OptionGroup var listing: ListingOptions

    func run() async throws {
        let store = try catalog.openForReading()
        try store.exportClips(filter: listing.filter, format: listing.outputFormat.resolved, limit: listing.limit,
                              sink: writeToStandardOutput)
    }
}
