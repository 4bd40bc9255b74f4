import ArgumentParser
import Foundation
import SEKit

/// `sekit runs delete RUN [--with-descendants] [--dry-run]`.
struct RunsDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Remove a run, and what was recorded with it, from the catalogue.",
        discussion: """
            RUN: id, unique id prefix or name. Removes the run's row and everything recorded with it: \
            parameters, tags, step metrics, artifacts, clips, scores, aggregates, the sources it \
            imported, and the scores other runs gave its clips. A run that other runs descend from \
            (an enhance run's score runs, a mix's features) is refused unless --with-descendants, \
            which removes them too; either way the runs removed are listed first. Refused as well \
            while a listening test rated its outputs or another run's clips use sources it imported. \
            One transaction: all or nothing. Files on disk are never deleted.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: ArgumentHelp("The run: id, unique id prefix or name.", valueName: "run"))
    var reference: String

    @Flag(name: .customLong("with-descendants"), help: "Also remove every run that descends from it.")
    var withDescendants = false

    @Flag(name: .customLong("dry-run"), help: "List what would be removed; remove nothing.")
    var dryRun = false

    func run() throws {
        let opened = try catalog.open(create: false)
        let record = try opened.resolveRun(reference)
        let runs = try opened.runWithDescendants(record.id)
        let listing = runs.reversed().map { "  \($0.kind.rawValue) \($0.id.rawValue) \($0.name) (\($0.status.rawValue))" }
        if runs.count > 1 && !withDescendants {
            throw CommandLineMessage(description: "run \(record.id.rawValue) has \(runs.count - 1) descendant run(s); "
                                     + "--with-descendants removes them too:\n" + listing.dropFirst().joined(separator: "\n"),
                                     isUsageError: true)
        }
        StandardOutput.write((dryRun ? "would remove" : "removing") + " \(runs.count) run(s):\n" + listing.joined(separator: "\n") + "\n")
        if dryRun {
            let blockers = try opened.deletionBlockers(runs)
            if !blockers.isEmpty { throw CommandLineMessage(description: "cannot be deleted: " + blockers.joined(separator: "; ")) }
            return
        }
        try opened.deleteRuns(runs)
        StandardOutput.write("removed \(runs.count) run(s); no file on disk was touched\n")
    }
}
