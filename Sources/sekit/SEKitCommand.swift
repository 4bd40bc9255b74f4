import ArgumentParser
import SEKit

@main
struct SEKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sekit",
        abstract: "SEKit: noisy corpora, training features, scores and experiment history for speech enhancement.",
        version: SEKitVersion.string,
        subcommands: [
            // One line per subcommand; keep alphabetical.
            CatalogCommand.self,
            FeaturesCommand.self,
            InfoCommand.self,
            MixCommand.self,
            NoiseCommand.self,
            RunsCommand.self,
            ScoreCommand.self,
            SynthesizeCommand.self,
        ]
    )
}
