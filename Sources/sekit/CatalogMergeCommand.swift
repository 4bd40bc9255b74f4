import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog merge`: merge shard catalogues.
struct CatalogMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge shard catalogues into OUT (created if missing); merging again adds nothing.",
        discussion: """
            Rows already in OUT are kept; a run still 'running' in OUT takes the final status an input has.

            Formats: table (rows added per input, then the totals), csv (input, table, rows) or json \
            (the whole report; --json is the same).
            """
    )

    @Argument(help: "Output catalogue.")
    var output: String

    @Argument(help: "Input (shard) catalogues.")
    var inputs: [String]

    @OptionGroup var outputFormat: OutputFormatOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input catalogue after OUT") }
    }

    func run() async throws {
        let store = try Catalog.open(at: URL(fileURLWithPath: output), create: true)
        let report = try store.merge(inputs.map { URL(fileURLWithPath: $0) })
        try outputFormat.print(report, text: { report.text(output: store.url) }, table: { report.table })
    }
}
