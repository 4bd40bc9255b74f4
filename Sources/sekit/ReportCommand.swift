import ArgumentParser
import Foundation
import SEKit

extension ReportAudio: ExpressibleByArgument {}

/// `sekit report`: one self-contained HTML page about score runs.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained HTML report of one score run or several (no network needed to view it).",
        discussion: """
            One run: provenance (command, parent runs, parameters), the metric summary with 95% CIs, \
            charts of the improvement over the noisy input per input SNR, the per-clip table (click a \
            header to sort; unsorted without JavaScript), and the --worst N clips by the improvement of \
            --worst-metric (default stoi) with their noisy, enhanced and clean spectrograms and audio \
            players. Several runs (e.g. every checkpoint scored on one corpus): the leaderboard, the \
            runs diff of the best two with significance, then the best run's section.

            Everything is inside the one file (inline CSS, SVG charts, PNG spectrograms, a few lines of \
            JavaScript; --audio embed puts the WAV files in as base64, link points at them relative to \
            the page, none leaves players out), so it opens from an e-mail attachment.

            Example:
              sekit report noisy logmmse wiener oracle-irm --out report.html
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: ArgumentHelp("Score runs: id, id prefix or name.", valueName: "run"))
    var runs: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("The page to write (.html).", valueName: "file"))
    var out: String

    @Option(help: ArgumentHelp("How many of the worst clips to show with spectrograms and players.", valueName: "n"))
    var worst = 5

    @Option(help: ArgumentHelp("The metric whose improvement ranks the clips (default stoi, else the run's first).", valueName: "metric"))
    var worstMetric: String?

    @Option(help: "Audio players: embed the files, link to them, or none.")
    var audio: ReportAudio = .embed

    func run() async throws {
        var request = HTMLReportRequest(runs: runs, output: URL(fileURLWithPath: out))
        request.worst = worst
        request.worstMetric = worstMetric
        request.audio = audio
        // The catalogue it reads from also records the report run.
        let opened = try catalog.open(create: false)
        let outcome = try HTMLReport.write(request, catalog: opened, context: RunContext(catalog: opened))
        printError("report: \(outcome.runs.count) run(s), \(outcome.figures) figures, \(outcome.clipsShown) clips with audio, "
                   + "\(outcome.bytes / 1024) KiB -> \(outcome.output.path)")
    }
}
