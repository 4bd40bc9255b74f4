import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog stats`: counts and hours.
struct CatalogStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Counts and hours per corpus, kind and split, runs per kind, and the clips' SNR histogram.",
        discussion: """
            Formats: table (sources, clips, runs and SNR histogram tables), csv (the sources table: \
            corpus, kind, files, hours, speakers) or json (everything; --json is the same).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: "Width of the SNR histogram bins, dB.")
    var snrBinDB: Double = 5

    @OptionGroup var outputFormat: OutputFormatOptions

    func validate() throws {
        if !(snrBinDB > 0) { throw ValidationError("--snr-bin-db must be > 0, got \(snrBinDB)") }
    }

    func run() async throws {
        let stats = try catalog.openForReading().stats(snrBinWidthDB: snrBinDB)
        try outputFormat.print(stats, text: { stats.text }, table: { stats.sourceTable })
    }
}
