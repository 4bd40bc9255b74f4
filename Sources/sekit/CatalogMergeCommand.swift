import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog merge`: merge shard catalogues.
struct CatalogMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge shard catalogues into OUT (created if missing); merging again adds nothing.",
        discussion: """
            Rows already in OUT are kept; a run still 'running' in OUT takes the final status an input has. \
            A row whose key OUT holds with different content (a source with the same id but another file: \
            sha256, bytes or path; a run or clip with the same id but other values) is a conflict: the \
            input is refused and nothing of it is merged, unless --on-conflict keep-first (keep OUT's row) \
            or rename (the input's source becomes ID~<first 8 hex of its sha256> and the input's clips \
            point to it; conflicting runs and clips are still refused). Conflicts resolved are listed on \
            standard error. Each input is merged in one transaction. Inputs are only read, never written \
            (one from an older SEKit is migrated in a temporary copy), and every input is checked \
            (present, not empty, a catalogue) before anything is written. A new OUT is built under a \
            temporary name (without a journal on disk, synced once at the end) and appears when \
            complete; a merge that merges nothing, or fails writing, leaves no file.

            Shard runs are folded: the N runs of one command run with --shard i/N (each into its own \
            catalogue) become one run equal to the single-process run of the same command: the same \
            clips (re-keyed under the folded run), per-clip scores and parameters (counts of each \
            shard's items summed; shard = 1/1, folded_shards = N, folded_runs = the shard run ids), and \
            aggregates (means, CIs, per-SNR/split/degradation subsets) recomputed from the per-clip \
            rows in clip order. Its id is derived from the shard run ids, so merging again adds \
            nothing. A shard missing or given twice, shards of different commands (parameters, parent, \
            SEKit version), a shard that did not finish or an input named twice refuses the whole merge \
            before anything is written, naming the file. --no-fold copies shard runs as they are. \
            A folded run is 'running' until every input is in: a merge killed half-way leaves it \
            running (catalog check marks it failed once the merge's process is gone), never finished \
            with part of its rows; the same merge run again completes it.

            Formats: table (rows added per input, then the totals), csv (input, table, rows) or json \
            (the whole report; --json is the same).
            """
    )

    @Argument(help: "Output catalogue.")
    var output: String

    @Argument(help: "Input (shard) catalogues.")
    var inputs: [String]

    @Option(help: ArgumentHelp("""
        What to do with a row whose key OUT holds with different content: error (refuse the input), keep-first or rename.
        """, valueName: "error|keep-first|rename"))
    var onConflict: Catalog.MergeConflictPolicy = .error

    @Flag(name: .long, help: "Copy shard runs as they are instead of folding each command's shard runs into one run.")
    var noFold = false

    @OptionGroup var outputFormat: OutputFormatOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input catalogue after OUT") }
    }

    func run() async throws {
        let out = URL(fileURLWithPath: output)
        let sources = inputs.map { URL(fileURLWithPath: $0) }
        let report = try CatalogMergeJob.run(.init(output: out, inputs: sources, onConflict: onConflict, foldShards: !noFold))
        for conflict in report.conflicts {
            printError("conflict (\(conflict.resolution)): \(conflict.input): \(conflict.table) \(conflict.id): \(conflict.detail)")
        }
        try outputFormat.print(report, text: { report.text(output: out.standardizedFileURL) }, table: { report.table })
    }
}
