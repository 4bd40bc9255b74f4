import ArgumentParser
import Foundation
import SEKit

/// `sekit runs finish RUN [--failed REASON]`.
struct RunsFinishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "finish",
        abstract: "End a run made elsewhere: finished, or failed with a reason.",
        discussion: """
            RUN: id, unique id prefix or name (of several runs with the name, the one running). \
            A run that has ended already is refused.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: ArgumentHelp("The run: id, unique id prefix or name.", valueName: "run"))
    var reference: String

    @Option(help: ArgumentHelp("End it failed, with this reason (stored as the run's error).", valueName: "reason"))
    var failed: String?

    func validate() throws {
        if let failed, failed.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--failed is empty; give the reason") }
    }

    func run() throws {
        let opened = try catalog.open(create: false)
        let record = try opened.resolveRun(reference, preferring: .running)
        try opened.finishRun(record.id, status: failed == nil ? .finished : .failed, error: failed)
    }
}
