import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog check`: consistency report.
struct CatalogCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the catalogue against the disk: vanished or changed files, abandoned runs, split leaks.",
        discussion: """
            Source files are re-hashed when their size or modification time changed (all of them with \
            --rehash). Runs left 'running' by a process that is gone on this host are marked 'failed' \
            (by default; --dry-run only reports them). Runs folded from shards by catalog merge must \
            hold the rows their counts say (a mix's clips, a score run's scored clips). Exit status 1 \
            when anything needs attention.

            Formats: table (one line per problem, then a verdict), csv (one row per problem: problem, \
            table, id, detail) or json (the whole report; --json is the same).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Flag(help: "Re-hash every source file, not only those whose size or modification time changed.")
    var rehash = false

    @Flag(help: "Report abandoned runs without marking them failed.")
    var dryRun = false

    @OptionGroup var outputFormat: OutputFormatOptions

    func run() async throws {
        // --dry-run only reads: the catalogue is opened read-only and nothing is written.
        let store = try dryRun ? catalog.openForReading() : catalog.open(create: false)
        let report = try store.check(rehashAll: rehash, dryRun: dryRun)
        try outputFormat.print(report, text: { report.text(dryRun: dryRun) }, table: { report.table })
        if !report.isClean { throw ExitCode(1) }
    }
}
