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

            Formats: table (one summary line), csv (one row per file added, updated or failed: \
            outcome, source, reason) or json (the whole report; --json is the same).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: "What the files are: speech, noise or rir.")
    var kind: SourceKind

    @Option(help: "Corpus name, e.g. vctk, demand, musan-noise.")
    var corpus: String

    @Option(help: ArgumentHelp("""
        Regular expression searched in each file's relative path; its first group (or the whole match) is the speaker.
        """, valueName: "regex"))
    var speakerPattern: String?

    @OptionGroup var outputFormat: OutputFormatOptions

    @Argument(help: "Audio files and folders.")
    var paths: [String]

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file or folder to import") }
    }

    func run() async throws {
        let store = try catalog.open(create: true)
        let request = ImportJob.Request(paths: paths.map { URL(fileURLWithPath: $0) }, kind: kind, corpus: corpus,
                                        speakerPattern: speakerPattern)
        let report = try ImportJob.run(request, context: RunContext(catalog: store, commandLine: CommandLine.arguments)).result
        try outputFormat.print(report, text: { report.text }, table: { report.table })
        for failure in report.failures { printError("failed: \(failure.path): \(failure.reason)") }
        if !report.failures.isEmpty { throw ExitCode(1) }
    }
}
