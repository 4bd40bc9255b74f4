import ArgumentParser
import Foundation
import SEKit

/// `sekit runs rename RUN NAME`.
struct RunsRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Give a run another name.",
        discussion: """
            RUN: id, unique id prefix or name. The name is what run references, leaderboards and \
            reports show; the run's id, parameters (a score run's checkpoint stays as given) and files \
            are unchanged. Prints the run's id with its old and new name.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: ArgumentHelp("The run: id, unique id prefix or name.", valueName: "run"))
    var reference: String

    @Argument(help: ArgumentHelp("Its new name.", valueName: "name"))
    var name: String

    func validate() throws {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the new name is empty; give the run a name") }
    }

    func run() throws {
        let opened = try catalog.open(create: false)
        let record = try opened.resolveRun(reference)
        try opened.renameRun(record.id, to: name)
        StandardOutput.write("renamed \(record.kind.rawValue) run \(record.id.rawValue): \(record.name) -> \(name)\n")
    }
}
