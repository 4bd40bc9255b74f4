import ArgumentParser
import SEKit

/// `sekit listen`: listening tests made from the catalogue's score runs.
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Listening tests (MUSHRA, P.808 ACR/DCR/CCR, P.835) from score runs: make the page, import ratings, show, correlate.",
        subcommands: [ListenMakeCommand.self, ListenImportCommand.self, ListenShowCommand.self, ListenCorrelateCommand.self]
    )
}

extension ListeningTestKind: ExpressibleByArgument {}
