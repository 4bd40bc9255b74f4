import ArgumentParser
import Foundation
import SEKit

/// `sekit runs best --metric M`.
struct RunsBestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "best",
        abstract: "The run with the best mean of a metric (respecting its direction), with its CI and the runner-up.",
        discussion: """
            Candidates: finished runs of --kind (default score) that stored the metric for the subset, \
            optionally only those on --corpus (a mix run, or a score run on it) and matching --filter \
            (the language of `runs list`). Lower is better for llr, wss and cd; higher for the others; \
            the _noisy and _improvement series follow their metric. The CI is the stored 95% Student-t \
            interval of the mean; `sekit runs diff RUNNER-UP BEST` tests whether the lead is real.

            Formats: table (two lines), csv (the best and the runner-up as rows, unrounded) or json.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: ArgumentHelp("Metric to rank by (stoi, sisdr, llr, stoi_improvement, ...).", valueName: "metric"))
    var metric: String

    @Option(help: ArgumentHelp("Subset: all, snr=0, split=test, ...", valueName: "subset"))
    var subset = "all"

    @Option(help: ArgumentHelp("Kind of run.", valueName: "kind"))
    var kind: RunKind = .score

    @Option(help: ArgumentHelp("Only runs on this corpus: its mix run, or a score run on it (id, prefix or name).", valueName: "run"))
    var corpus: String?

    @Option(help: ArgumentHelp("Filter expression over runs (see `sekit runs list --help`).", valueName: "expr"))
    var filter: String?

    @OptionGroup var outputFormat: OutputFormatOptions

    func run() async throws {
        let best = try BestRun.find(BestRun.Request(metric: metric, subset: subset, kind: kind, corpus: corpus, filter: filter),
                                    in: try catalog.openForReading())
        writeToStandardOutput(try best.rendered(ReportFormat(rawValue: outputFormat.resolved.rawValue)!))
    }
}
