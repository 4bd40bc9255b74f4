import ArgumentParser
import Foundation
import SEKit

/// Formats of `sekit runs diff` (no LaTeX: its report is several tables and prose).
enum DiffFormat: String, CaseIterable, ReportFormatChoice {
    case table, csv, json, markdown
}

/// `sekit runs diff A B`.
struct RunsDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two score runs: parameters that differ, "
            + "and per metric and subset the difference with a bootstrap CI and a paired test.",
        discussion: """
            A and B are run ids, unique id prefixes or checkpoint names (a name given to several runs \
            is its latest finished run; an id names an older one). Parameters: those that differ along each run's lineage (the score \
            run, its enhance or features run, its mix run), named KIND.KEY.

            Scores (paired, the default; both runs scored the same corpus): on the clips both runs \
            scored, for every metric and subset (all, per SNR, per split, as `sekit score` summarises \
            them): mean of A and of B, the mean per-clip difference B − A, its 95% bootstrap percentile \
            interval (clips resampled with replacement, all metrics of a subset together; --resamples, \
            --seed), the two-sided Wilcoxon signed-rank p-value with SciPy's defaults (zero differences \
            dropped; exact for n <= 50 without ties or zeros, every sign flip for n <= 13 with them, else \
            the normal approximation), the n \
            paired clips, and * where the Holm-corrected p over the rows shown is below 0.05. Clips \
            scored by only one run are counted and named in the notes.

            --unpaired compares runs scored on different corpora (refused otherwise): the bootstrap of \
            mean(B) − mean(A) with each run's clips resampled on their own, and the two-sided \
            Mann-Whitney U test. It assumes nothing about which clips correspond and has less power; \
            use it only when the runs' test sets differ.

            Formats: table, markdown (the same, as Markdown), csv (one row per metric and subset, \
            unrounded) or json (everything, with every clip left out).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: "Run A (the baseline): id, id prefix or name.")
    var a: String

    @Argument(help: "Run B: id, id prefix or name.")
    var b: String

    @Option(help: ArgumentHelp("Comma-separated metrics (default: every metric both runs scored).", valueName: "metrics"))
    var metrics: String?

    @Option(help: ArgumentHelp("""
        Comma-separated subsets: all, snr=0, split=test, degradation=mp3, degradation=codec, degradation=none, ... \
        (default: every subset).
        """, valueName: "subsets"))
    var subset: String?

    @Flag(help: "Compare runs scored on different corpora (Mann-Whitney U, unpaired bootstrap).")
    var unpaired = false

    @Option(help: ArgumentHelp("Bootstrap resamples.", valueName: "n"))
    var resamples = 10_000

    @Option(help: ArgumentHelp("Seed of the bootstrap's resampling.", valueName: "seed"))
    var seed: UInt64 = 0

    @Option(help: ArgumentHelp("How to print the comparison.", valueName: "format"))
    var format: DiffFormat = .table

    func validate() throws {
        guard resamples >= 100 && resamples <= 1_000_000 else {
            throw ValidationError("--resamples must be from 100 to 1000000, got \(resamples)")
        }
        if let metrics, Self.list(metrics).isEmpty { throw ValidationError("--metrics is empty; name at least one metric or leave it out") }
        if let subset, Self.list(subset).isEmpty { throw ValidationError("--subset is empty; name at least one subset or leave it out") }
    }

    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() async throws {
        var request = RunDiff.Request(metrics: metrics.map(Self.list), subsets: subset.map(Self.list), unpaired: unpaired)
        request.resamples = resamples
        request.seed = seed
        let diff = try RunDiff.compute(a, b, request: request, in: try catalog.openForReading())
        writeToStandardOutput(try diff.rendered(format.report))
    }
}
