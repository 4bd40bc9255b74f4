import Foundation

extension AudioFileReport {
    /// Column titles of `sekit info`'s table.
    public static let textColumns = ["file", "format", "encoding", "rate", "ch", "seconds", "peak dBFS", "RMS dBFS",
                                     "active dBFS", "active %", "LUFS", "clipped %", "DC"]

    /// The report as a row of `sekit info`'s table: levels to 0.01 dB (`-inf` for silence, `-` when
    /// not measurable), ratios in percent.
    public var textRow: [String] {
        func db(_ v: Double?) -> String { guard let v else { return "-" }; return v.isFinite ? String(format: "%.2f", v) : "-inf" }
        return [path, format.components(separatedBy: " ").first ?? format, encoding, String(sampleRate), String(channels),
                String(format: "%.3f", durationSeconds), db(peakDBFS), db(rmsDBFS), db(activeLevelDBFS),
                activeRatio.map { String(format: "%.1f", 100 * $0) } ?? "-", db(lufs),
                String(format: "%.3f", 100 * clippedRatio), String(format: "%.2e", dcOffset)]
    }

    /// CSV columns: the JSON field names, in the order of the table.
    public static let csvColumns = CodingKeys.allCases.map(\.rawValue)

    /// The report as a CSV row of full-precision values; empty where JSON has null (levels of
    /// silence, P.56 level or LUFS not measurable).
    public var csvRow: [TableCell] {
        func level(_ v: Double?) -> TableCell { v.flatMap { $0.isFinite ? .real($0) : nil } ?? .null }
        return [.text(path), .text(format), .text(encoding), .integer(Int64(sampleRate)), .integer(Int64(channels)),
                .integer(Int64(frames)), .real(durationSeconds), level(peakDBFS), level(rmsDBFS), level(activeLevelDBFS),
                level(activeRatio), level(lufs), .real(clippedRatio), .real(dcOffset)]
    }
}
