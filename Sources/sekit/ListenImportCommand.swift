import ArgumentParser
import Foundation
import SEKit

/// `sekit listen import --test DIR RESULTS...`.
struct ListenImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import ratings (the page's results files, webMUSHRA's mushra.csv) into the catalogue, screening the raters.",
        discussion: """
            Every file is checked against DIR/test.json before anything is stored: its stimuli hash (a \
            results file of another test is refused), every stimulus and file it names (a tampered page), \
            every score in range, every stimulus rated once on every scale. Then each file is stored in one \
            transaction: a rater already imported into the test refuses that file whole. Raters are \
            screened as they are stored: MUSHRA excludes a rater who scored the hidden reference below 90 in \
            more than 15% of the trials; ACR, DCR, CCR and P.835 one who failed the trapping or the gold \
            trial (ITU-T P.808). See docs/listening-tests.md.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(name: .customLong("test"), help: ArgumentHelp("The test folder `sekit listen make` wrote.", valueName: "dir"))
    var testFolder: String

    @Argument(help: ArgumentHelp("Results files: results-RATER.json from the page, or webMUSHRA's mushra.csv.", valueName: "results"))
    var results: [String]

    @Option(help: ArgumentHelp("The test's name in the catalogue (default: the name it was made with).", valueName: "name"))
    var name: String?

    func validate() throws {
        if results.isEmpty { throw ValidationError("name at least one results file") }
    }

    func run() async throws {
        var request = ListenImportJob.Request(
            testFolder: URL(fileURLWithPath: testFolder), results: results.map { URL(fileURLWithPath: $0) })
        request.name = name
        let context = RunContext(catalog: try catalog.open(create: true), commandLine: CommandLine.arguments)
        let outcome = try ListenImportJob.run(request, context: context)
        var text = "test \(outcome.test): \(outcome.raters.count) raters imported, \(outcome.raters.filter { $0.rule == nil }.count) kept\n"
        for rater in outcome.raters where rater.rule != nil { text += "excluded \(rater.rater): \(rater.rule!)\n" }
        writeToStandardOutput(text)
        if let line = outcome.run.summaryLine { printError(line) }
    }
}
