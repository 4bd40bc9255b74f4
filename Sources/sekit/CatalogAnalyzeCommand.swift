import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog analyze`: measure every file of a source corpus for curated mix inputs.
struct CatalogAnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure every file of a source corpus (bandwidth, P.56 activity, clipping, DC, level, DNSMOS) for curated mix inputs.",
        discussion: """
            The folder is walked recursively as the mix walks its inputs (hidden files skipped); speech, \
            noise and mixed folders are all accepted: the kind comes from the mix input that names the corpus. \
            Per file the table source_analysis stores sample_rate, duration_seconds, bandwidth_hz (highest \
            frequency within 50 dB of the long-term spectrum's peak), active_speech_ratio (P.56), \
            clipping_ratio (|x| >= 0.999), dc_offset, level_dbfs (P.56 active level), rms_dbfs and, with \
            the Python environment, dnsmos_sig, dnsmos_bak, dnsmos_ovrl (NULL with --no-dnsmos). Mix inputs \
            select from it: --speech "corpus:NAME where bandwidth_hz >= 7000 and dnsmos_bak >= 3".

            Analysing again measures only files that are new, changed (SHA-256), failed before, or lack \
            DNSMOS when it is asked for; rows of files gone from the folder are removed; all in one \
            transaction. Files that cannot be analysed are listed with the reason and recorded with it; \
            the exit status is then 1.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: "Corpus name, written corpus:NAME in mix inputs (default: the folder's name).")
    var name: String?

    @OptionGroup var workers: JobsOption

    @Flag(name: .customLong("no-dnsmos"), help: "Do not run DNSMOS (its columns stay NULL).")
    var noDNSMOS = false

    @Argument(help: "The corpus folder.")
    var corpus: String

    func run() async throws {
        let store = try catalog.open(create: true)
        var request = SourceAnalysisJob.Request(folder: URL(fileURLWithPath: corpus), name: name)
        request.dnsmos = !noDNSMOS
        request.jobs = workers.jobs
        let meter = ProgressMeter(label: "analyze", unit: "files")
        let report = try SourceAnalysisJob.run(request, catalog: store, progress: { done, total in meter.update(done, of: total) })
        if let reason = report.dnsmosUnavailable { printError("warning: DNSMOS not run (its columns stay NULL): \(reason)") }
        print(report.text)
        for failure in report.failures { printError("failed: \(failure.path): \(failure.reason)") }
        if !report.failures.isEmpty { throw ExitCode(1) }
    }
}
