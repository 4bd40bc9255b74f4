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
            (by default; --dry-run only reports them). Exit status 1 when anything needs attention.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Flag(help: "Re-hash every source file, not only those whose size or modification time changed.")
    var rehash = false

    @Flag(help: "Report abandoned runs without marking them failed.")
    var dryRun = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let store = try catalog.open(create: false)
        let report = try store.check(rehashAll: rehash, dryRun: dryRun)
        if json {
            writeToStandardOutput(try jsonText(report))
        } else {
            for problem in report.integrityProblems { print("integrity: \(problem)") }
            for file in report.missingFiles { print("missing: \(file.table) \(file.id): \(file.path)") }
            for file in report.changedFiles { print("changed: \(file.table) \(file.id): \(file.path)") }
            for run in report.abandonedRuns { print("abandoned run \(run): \(dryRun ? "would be marked failed" : "marked failed")") }
            for run in report.runningElsewhere { print("running on another host (not verified): \(run)") }
            for leak in report.splitLeaks { print("split leak: source \(leak.sourceID) is used in \(leak.splits.joined(separator: ", "))") }
            print(report.isClean ? "catalogue is consistent (\(report.filesHashed) files re-hashed)" : "catalogue needs attention")
        }
        if !report.isClean { throw ExitCode(1) }
    }
}
