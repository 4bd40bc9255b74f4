import ArgumentParser
import Foundation
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
            EnhanceCommand.self,
            ExportCommand.self,
            FeaturesCommand.self,
            InfoCommand.self,
            ListenCommand.self,
            MixCommand.self,
            NoiseCommand.self,
            PlotCommand.self,
            ReportCommand.self,
            RunsCommand.self,
            ScoreCommand.self,
            SynthesizeCommand.self,
        ]
    )

    /// Parses and runs the command; errors from the library are presented in flag terms
    /// (``ErrorPresentation``).
    static func main() async {
        StandardOutput.installExitCheck()
        let command: ParsableCommand
        do { command = try parseAsRoot() } catch { exit(withError: error) }
        do {
            var running = command
            if var asynchronous = running as? AsyncParsableCommand { try await asynchronous.run() } else { try running.run() }
        } catch where ["ambiguous-run", "no-such-run"].contains(ErrorPresentation.catalogError(in: error)?.code) {
            // A run reference that means several runs or none is a usage error (exit 2), with the candidates to choose from.
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            exit(withError: ExitCode(2))
        } catch {
            let code = ErrorPresentation.exitCode(for: error, command: type(of: command))
            let presented = ErrorPresentation.present(error, command: type(of: command))
            guard code != 1 else { exit(withError: presented) }
            FileHandle.standardError.write(Data("Error: \(presented)\n".utf8))
            exit(withError: ExitCode(code))
        }
    }
}
