import ArgumentParser

/// `sekit runs`: the history of runs recorded in the catalogue.
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List, show, compare and rank runs; export them for pandas; record runs made elsewhere.",
        subcommands: [RunsListCommand.self, RunsShowCommand.self, RunsDiffCommand.self, RunsBestCommand.self,
                      RunsLeaderboardCommand.self, RunsExportCommand.self,
                      RunsStartCommand.self, RunsLogCommand.self, RunsArtifactCommand.self, RunsFinishCommand.self,
                      RunsRenameCommand.self, RunsDeleteCommand.self],
        defaultSubcommand: RunsListCommand.self
    )
}
