import ArgumentParser
import Foundation
import SEKit

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show format and levels of audio files (peak, RMS, P.56 active level, LUFS, clipping, DC).",
        discussion: "A file that cannot be read gets an error line; the others are still reported and the exit status is 1."
    )

    @Argument(help: "Audio files (any format libsndfile reads).") var files: [String]
    @Flag(name: .long, help: "One JSON object per line per file (field names in the README).") var json = false

    func run() throws {
        var failed = 0
        var rows: [[String]] = []
        for file in files {
            do {
                let report = try AudioFileReport.analyze(URL(fileURLWithPath: file))
                if json { print(try report.jsonLine()) } else { rows.append(Self.row(report)) }
            } catch {
                failed += 1
                if json {
                    let escaped = "\(error)".replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    let path = file.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    print("{\"error\":\"\(escaped)\",\"path\":\"\(path)\"}")
                } else {
                    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                }
            }
        }
        if !json && !rows.isEmpty {
            print(TextTable.render(header: ["file", "format", "encoding", "rate", "ch", "seconds", "peak dBFS", "RMS dBFS",
                                            "active dBFS", "active %", "LUFS", "clipped %", "DC"], rows: rows), terminator: "")
        }
        if failed > 0 { throw ExitCode(1) }
    }

    static func row(_ r: AudioFileReport) -> [String] {
        func db(_ v: Double?) -> String { guard let v else { return "-" }; return v.isFinite ? String(format: "%.2f", v) : "-inf" }
        return [r.path, r.format.components(separatedBy: " ").first ?? r.format, r.encoding, String(r.sampleRate), String(r.channels),
                String(format: "%.3f", r.durationSeconds), db(r.peakDBFS), db(r.rmsDBFS), db(r.activeLevelDBFS),
                r.activeRatio.map { String(format: "%.1f", 100 * $0) } ?? "-", db(r.lufs),
                String(format: "%.3f", 100 * r.clippedRatio), String(format: "%.2e", r.dcOffset)]
    }
}
