import ArgumentParser

/// `sekit runs`: the history of runs recorded in the catalogue.
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List runs and show one run's parameters, artifacts and metrics.",
        subcommands: [RunsListCommand.self, RunsShowCommand.self],
        defaultSubcommand: RunsListCommand.self
    )
}
