import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog import`: record speech, noise or RIR files as sources.
struct CatalogImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Record audio files as sources (header, SHA-256, duration); re-importing is idempotent.",
        discussion: """
            Folders are walked recursively in sorted order; hidden files and files without an audio \
            extension are skipped. Each source's id is CORPUS:relative/path. Unreadable files are listed \
            with the reason and not recorded; the exit status is then 1.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: "What the files are: speech, noise or rir.")
    var kind: SourceKind

    @Option(help: "Corpus name, e.g. vctk, demand, musan-noise.")
    var corpus: String

    @Option(help: ArgumentHelp("Regular expression searched in each file's relative path; its first group (or the whole match) is the speaker.", valueName: "regex"))
    var speakerPattern: String?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Argument(help: "Audio files and folders.")
    var paths: [String]

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file or folder to import") }
    }

    func run() async throws {
        let store = try catalog.open(create: true)
        let report = try store.importSources(paths.map { URL(fileURLWithPath: $0) }, kind: kind, corpus: corpus,
                                             speakerPattern: speakerPattern, commandLine: CommandLine.arguments)
        if json {
            writeToStandardOutput(try jsonText(report))
        } else {
            print("import run \(report.runID): \(report.added.count) added, \(report.updated.count) updated, \(report.unchanged) unchanged, \(report.failures.count) failed, \(report.skippedNonAudio) non-audio skipped")
        }
        for failure in report.failures { printError("failed: \(failure.path): \(failure.reason)") }
        if !report.failures.isEmpty { throw ExitCode(1) }
    }
}
