import ArgumentParser
import Foundation
import SEKit

/// `sekit runs export`.
struct RunsExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Runs with their parameters and metric summaries as one flat table, or every per-clip score (--per-clip), for pandas.",
        discussion: """
            Without --per-clip: one row per run matching --filter (newest first): \
            \(Catalog.runExportColumns.joined(separator: ", ")), then params.KEY for every parameter \
            key of the runs, then metrics.NAME.STAT (STAT: \(Catalog.runExportMetricStats.joined(separator: ", "))) \
            of the overall aggregates. Parameters that spell numbers are numbers.

            With --per-clip: one row per (run, clip, metric) of the matching score runs, streamed (flat \
            memory): \(Catalog.clipScoreExportColumns.joined(separator: ", ")). improvement = value − \
            noisy_value; the clip's split, SNRs, speaker and sources come from the catalogue (empty \
            when the scored files were not a catalogued corpus). Read it with pandas.read_csv.

            With --table NAME: the rows of one catalogue table as stored, every column, in key order: \
            the rows of the runs matching --filter for the tables tied to runs, every row of the \
            others (listening tests, source analyses; --filter is refused there). Tables: \
            \(CatalogTable.all.map(\.name).joined(separator: ", ")).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: ArgumentHelp("Filter expression over runs (see `sekit runs list --help`).", valueName: "expr"))
    var filter: String?

    @Flag(name: .customLong("per-clip"), help: "One row per run, clip and metric instead of one per run.")
    var perClip = false

    @Option(help: ArgumentHelp("One catalogue table as stored (runs, clips, listening_ratings, ...).", valueName: "name"))
    var table: String?

    @Option(help: ArgumentHelp("csv, json or table.", valueName: "format"))
    var format: TableFormat = .csv

    func run() async throws {
        let opened = try catalog.openForReading()
        if let table {
            guard !perClip else { throw ValidationError("--table and --per-clip exclude each other") }
            try opened.exportTable(table, filter: filter, format: format, sink: writeToStandardOutput)
        } else if perClip {
            try opened.exportClipScores(filter: filter, format: format, sink: writeToStandardOutput)
        } else {
            try opened.exportRunTable(filter: filter, format: format, sink: writeToStandardOutput)
        }
    }
}
