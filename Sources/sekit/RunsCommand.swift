import ArgumentParser

/// `sekit runs`: the history of runs recorded in the catalogue.
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List, show, compare and rank runs; export them for pandas.",
        subcommands: [RunsListCommand.self, RunsShowCommand.self, RunsDiffCommand.self, RunsBestCommand.self,
                      RunsLeaderboardCommand.self, RunsExportCommand.self],
        defaultSubcommand: RunsListCommand.self
    )
}
