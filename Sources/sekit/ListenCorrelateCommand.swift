import ArgumentParser
import Foundation
import SEKit

/// `sekit listen correlate [TEST]`.
struct ListenCorrelateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correlate",
        abstract: "Which metric to trust: correlations between the listeners and every objective metric scored on the test's clips.",
        discussion: """
            For every metric every run's score run holds: Pearson, Spearman and Kendall (tau-b) \
            correlations with 95% Fisher-z intervals between the kept raters' mean scores and the metric, \
            at clip level (a point per clip and run) and at system level (a point per run, means over the \
            test's clips), and the RMSE of the metric as a predictor after ITU-T P.1401's third-order \
            mapping (needs more than 4 points), plain and epsilon-insensitive (rmse*, P.1401 7.3: an error \
            within the 95% interval of the listeners' score counts as 0). P.835 tests use the overall scale.

            Formats: table, csv (one row per metric and level, unrounded) or json (with every point).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: "The test's name (default: the only test in the catalogue).")
    var test: String?

    @OptionGroup var outputFormat: OutputFormatOptions

    func run() async throws {
        let opened = try catalog.openForReading()
        let correlation = try ListeningCorrelation(try opened.listeningTest(test), catalog: opened)
        try outputFormat.print(correlation, text: { correlation.text }, table: { correlation.table })
    }
}
