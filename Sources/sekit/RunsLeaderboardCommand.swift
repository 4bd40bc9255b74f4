import ArgumentParser
import Foundation
import SEKit

/// Formats of `sekit runs leaderboard`.
enum LeaderboardFormat: String, CaseIterable, ReportFormatChoice {
    case table, csv, json, markdown, latex
}

/// `sekit runs leaderboard --corpus RUN`.
struct RunsLeaderboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "One row per checkpoint scored on a corpus, with the noisy input as reference: the table for the paper.",
        discussion: """
            Rows: the latest finished score run per checkpoint name on the corpus (--all: every run), \
            ordered by mean rank; first the noisy input (a score of the corpus without --enhanced, \
            else the noisy values the checkpoints' runs stored). Cells: mean ± half-width of the \
            stored 95% Student-t interval over the clips each run scored. The best value per column \
            among the checkpoints is marked (* in text, bold in Markdown and LaTeX). Mean rank: the \
            dense rank per metric (1 = best, equal means share a rank; lower is better for llr, wss, \
            cd), averaged over the metrics shown. Different checkpoints may have failed on different \
            clips: n per cell is in csv and json; `sekit runs diff` compares two runs on their common clips.

            Formats: table, csv (NAME_mean, NAME_ci95_half, NAME_n, NAME_best per metric, unrounded), \
            json, markdown, latex (a tabular with booktabs rules: \\usepackage{booktabs}).

            Checkpoints of a training run: `--group-by params.epoch` puts the rows whose lineage \
            records an epoch first, epoch by epoch, adds the epoch column (and best_checkpoint in csv), \
            and ends on the best checkpoint, the last one and the best classical baseline with the \
            `sekit runs diff` commands that test the best against each.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: ArgumentHelp("The corpus: its mix run, or any score run on it (id, prefix or name).", valueName: "run"))
    var corpus: String

    @Option(help: ArgumentHelp("Comma-separated metrics (default: every metric scored).", valueName: "metrics"))
    var metrics: String?

    @Option(help: ArgumentHelp("Subset: all, snr=0, split=test, degradation=mp3, degradation=codec (any codec), degradation=none, ...",
                               valueName: "subset"))
    var subset = "all"

    @Flag(help: "Every score run on the corpus, not only the latest per checkpoint name.")
    var all = false

    @Option(help: ArgumentHelp("Checkpoints side by side: rows whose lineage has the parameter (params.epoch: the epoch enhance --model "
                               + "records from the model) first, in its order; names the best, the last and the best classical baseline.",
                               valueName: "params.key"))
    var groupBy: String?

    @Option(help: ArgumentHelp("With --group-by: the metric whose best mean picks the best checkpoint (default: the lowest mean rank).",
                               valueName: "metric"))
    var bestBy: String?

    @Option(help: ArgumentHelp("How to print the board.", valueName: "format"))
    var format: LeaderboardFormat = .table

    func validate() throws {
        if let metrics, RunsDiffCommand.list(metrics).isEmpty {
            throw ValidationError("--metrics is empty; name at least one metric or leave it out")
        }
    }

    func run() async throws {
        let board = try Leaderboard.make(
            Leaderboard.Request(corpus: corpus, metrics: metrics.map(RunsDiffCommand.list), subset: subset, all: all,
                                groupBy: groupBy, bestBy: bestBy),
            from: try catalog.openForReading())
        writeToStandardOutput(try board.rendered(format.report))
        for note in board.rankNotes { printError("note: \(note)") }
    }
}
