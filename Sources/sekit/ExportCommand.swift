import ArgumentParser

/// `sekit export`: a corpus in another toolkit's format.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a mixed corpus in another toolkit's format (lhotse manifests).",
        subcommands: [ExportLhotseCommand.self]
    )
}
