import ArgumentParser
import Foundation
import SEKit

/// `sekit listen make --runs A,B --test mushra --clips N --out DIR`.
struct ListenMakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract:
            "Make a listening test from score runs: the clips, a self-contained offline page, test.json and a webMUSHRA configuration.",
        discussion: """
            Clips are drawn from the clips every run scored, stratified by requested input SNR (and by \
            degradation kind when the corpus has degradations), seeded by --seed. Each run is a condition \
            named after the run; its outputs for the clips, the clean references and (MUSHRA) the low-pass \
            anchors at 3.5 and 7 kHz are written to DIR/audio/ as 16-bit WAV. DIR/index.html plays them \
            with no network (open it in a browser, or serve the folder), in an order drawn per rater from \
            the seed, keeps progress in the browser and lets the rater download a results file (JSON) for \
            `sekit listen import`. DIR/test.json lists the stimuli with their SHA-256 and the stimuli hash. \
            MUSHRA also writes DIR/webmushra/config.yaml. ACR, DCR, CCR and P.835 add P.808's gold and \
            trapping trials (--spoken-trap: the trapping trial's instruction is spoken after its clip by \
            espeak-ng, as P.808's trapping clips are, instead of written on the page). With --loudness-lufs \
            every file (conditions, hidden reference, anchors, references) is scaled to that integrated \
            loudness (ITU-R BS.1770-4), its gain recorded in \
            test.json; files that clip after the gain are listed on stderr and in test.json. Without it the \
            files keep the runs' levels. See docs/listening-tests.md.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(
        help: ArgumentHelp(
            "Comma-separated score runs (id, id prefix or name): one condition each, named after the run.", valueName: "runs"))
    var runs: String

    @Option(help: ArgumentHelp("Kind of test: mushra, acr, dcr, ccr or p835.", valueName: "kind"))
    var test: ListeningTestKind

    @Option(help: ArgumentHelp("Clips in the test.", valueName: "n"))
    var clips: Int

    @Option(help: ArgumentHelp("Folder to write the test into.", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("Seed of the clip draw and of each rater's order.", valueName: "seed"))
    var seed: UInt64 = 0

    @Option(help: ArgumentHelp("The test's name (default: the name of the --out folder).", valueName: "name"))
    var name: String?

    @Option(
        name: .customLong("loudness-lufs"), parsing: .unconditional,
        help: ArgumentHelp(
            "Scale every stimulus to this integrated loudness, LUFS (ITU-R BS.1770-4; e.g. -26). Default: the runs' own levels.",
            valueName: "lufs"))
    var loudnessLUFS: Double?

    @Flag(
        name: .customLong("spoken-trap"),
        help: ArgumentHelp(
            "P.808's trapping trial asks for its answer in the audio (espeak-ng, after the clip) instead of on the page."))
    var spokenTrap = false

    func validate() throws {
        if RunsDiffCommand.list(runs).isEmpty { throw ValidationError("--runs is empty; name at least one score run") }
        if clips < 1 { throw ValidationError("--clips must be at least 1, got \(clips)") }
    }

    func run() async throws {
        var request = ListenMakeJob.Request(runs: RunsDiffCommand.list(runs), test: test, clips: clips, out: URL(fileURLWithPath: out))
        request.seed = seed
        request.name = name
        request.loudnessLUFS = loudnessLUFS
        request.spokenTrap = spokenTrap
        let context = RunContext(catalog: try catalog.open(create: false), commandLine: CommandLine.arguments)
        let outcome = try ListenMakeJob.run(request, context: context)
        let manifest = outcome.manifest
        let gold = manifest.trials.count - manifest.trials.filter { $0.role == "test" }.count
        var text =
            "test \(manifest.name): \(manifest.test.rawValue), "
                + "\(manifest.trials.count - gold) clips × \(manifest.conditions.count) conditions"
        text += gold > 0 ? " + \(gold) screening trials" : ""
        text += "\npage: \(outcome.page.path)\n"
        if let config = outcome.webMushra { text += "webMUSHRA: \(config.path)\n" }
        text += "stimuli hash: \(manifest.stimuliHash)\n"
        writeToStandardOutput(text)
        for clipped in outcome.clipped {
            printError(
                "warning: \(clipped.file) (\(clipped.label)) clipped \(clipped.samples) samples after its loudness gain; "
                    + "choose a lower --loudness-lufs")
        }
        if let line = outcome.run.summaryLine { printError(line) }
    }
}
