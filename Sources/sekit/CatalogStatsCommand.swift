import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog stats`: counts and hours.
struct CatalogStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Counts and hours per corpus, kind and split, runs per kind, and the clips' SNR histogram."
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: "Width of the SNR histogram bins, dB.")
    var snrBinDB: Double = 5

    @Flag(help: "Print the statistics as JSON.")
    var json = false

    func validate() throws {
        if !(snrBinDB > 0) { throw ValidationError("--snr-bin-db must be > 0, got \(snrBinDB)") }
    }

    func run() async throws {
        let stats = try catalog.open(create: false).stats(snrBinWidthDB: snrBinDB)
        if json { writeToStandardOutput(try jsonText(stats)); return }
        var text = ""
        func table(_ title: String, _ columns: [String], _ rows: [[TableCell]]) {
            text += "\(title)\n"
            var writer = TableWriter(columns: columns, format: .table) { text += $0 }
            rows.forEach { writer.append($0) }
            writer.finish()
            text += "\n"
        }
        table("sources", ["corpus", "kind", "files", "hours", "speakers"], stats.sources.map {
            [.text($0.corpus), .text($0.kind), .integer(Int64($0.files)), .text(String(format: "%.3f", $0.hours)), .integer(Int64($0.speakers))]
        })
        table("clips", ["split", "clips", "hours"], stats.clips.map {
            [.text($0.split), .integer(Int64($0.clips)), .text(String(format: "%.3f", $0.hours))]
        })
        table("runs", ["kind", "status", "runs"], stats.runs.map { [.text($0.kind), .text($0.status), .integer(Int64($0.runs))] })
        let peak = max(1, stats.snrHistogram.map(\.clips).max() ?? 1)
        table("snr (dB)", ["from", "to", "clips", ""], stats.snrHistogram.map {
            [.real($0.lowerDB), .real($0.lowerDB + stats.snrBinWidthDB), .integer(Int64($0.clips)),
             .text(String(repeating: "#", count: max(1, $0.clips * 40 / peak)))]
        })
        text += "clip scores: \(stats.clipScores)\n"
        writeToStandardOutput(text)
    }
}
