import ArgumentParser
import Foundation
import SEKit

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show format and levels of audio files (peak, RMS, P.56 active level, LUFS, clipping, DC).",
        discussion: """
        A file that cannot be read gets an error line; the others are still reported and the exit status is 1.

        Formats: table (one row per file, levels rounded), csv (one row per file, columns named as \
        the JSON fields, full precision, empty where JSON has null) or json (one object per line per \
        file, field names in the README; an unreadable file is {"error", "path"}; --json is the same).
        """
    )

    @Argument(help: "Audio files (any format libsndfile reads).") var files: [String]
    @OptionGroup var outputFormat: OutputFormatOptions

    /// The line `--format json` prints for a file that cannot be read.
    struct Failure: Encodable { var error: String; var path: String }

    func run() throws {
        let format = outputFormat.resolved
        var failed = 0
        var reports: [AudioFileReport] = []
        for file in files {
            do {
                // A stem of a corpus mixed as archives (CORPUS/noisy/ID.wav) is measured in its shard, named as given.
                let url = URL(fileURLWithPath: file)
                var report = try AudioFileReport.analyze(MixCorpusAudio.location(ofPath: url))
                report.path = url.path
                if format == .json { print(try report.jsonLine()) } else { reports.append(report) }
            } catch {
                failed += 1
                if format == .json {
                    print(try ReportJSON.text(Failure(error: "\(error)", path: file), style: .compact), terminator: "")
                } else {
                    printError("error: \(error)")
                }
            }
        }
        switch format {
        case .table where !reports.isEmpty:
            print(TextTable.render(header: AudioFileReport.textColumns, rows: reports.map(\.textRow)), terminator: "")
        case .csv:
            print(ReportTable(columns: AudioFileReport.csvColumns, rows: reports.map(\.csvRow)).rendered(.csv), terminator: "")
        default:
            break
        }
        if failed > 0 { throw ExitCode(1) }
    }
}
