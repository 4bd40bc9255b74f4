import ArgumentParser
import Foundation
import SEKit

/// `sekit listen show [TEST]`.
struct ListenShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "A listening test's results: each condition's MUSHRA score or MOS with 95% CIs and n, the raters kept and excluded.",
        discussion: """
            TEST is the test's name (its folder's name unless `listen make --name` or `listen import --name` \
            gave another); it may be left out when the catalogue holds one test. From the kept raters: per \
            condition, scale and subset (all clips, then each input SNR), the mean score with its Student-t \
            and bootstrap 95% intervals and n; the raters with the rule that excluded each; and every pair \
            of the runs compared on the same ratings (the mean difference with a bootstrap 95% interval, the \
            Wilcoxon signed-rank p, Holm-corrected).

            Formats: table, csv (one row per condition, scale and subset, unrounded) or json (everything).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: "The test's name (default: the only test in the catalogue).")
    var test: String?

    @OptionGroup var outputFormat: OutputFormatOptions

    func run() async throws {
        let summary = try ListeningSummary(try catalog.openForReading().listeningTest(test))
        try outputFormat.print(summary, text: { summary.text }, table: { summary.table })
    }
}
