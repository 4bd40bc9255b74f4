import ArgumentParser

/// `sekit catalog`: the SQLite memory of sources, clips, runs and scores.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Import sources and inspect, check and merge the catalogue (an SQLite file).",
        subcommands: [
            CatalogAnalyzeCommand.self,
            CatalogCheckCommand.self,
            CatalogClipsCommand.self,
            CatalogImportCommand.self,
            CatalogMergeCommand.self,
            CatalogStatsCommand.self,
        ]
    )
}
