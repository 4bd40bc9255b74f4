import Foundation

/// `OUT/.sekit-enhance.json`: which `enhance` run wrote a folder, so that `sekit score --enhanced
/// OUT` records that run as its parent (lineage score → enhance → mix, for `runs diff`).
public struct EnhanceRunMarker: Codable, Sendable, Equatable {
    /// File name inside the output folder (hidden: scoring by file name lists audio files only).
    public static let fileName = ".sekit-enhance.json"
    /// The catalogue the run is recorded in (absolute path), nil when not recorded.
    public var catalog: String?
    public var runID: RunID?
    public var method: String

    enum CodingKeys: String, CodingKey { case catalog, runID = "run_id", method }

    /// Writes the marker atomically.
    func write(in folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: folder.appendingPathComponent(Self.fileName))
    }

    /// The marker of `folder`, if it has a readable one.
    public static func read(in folder: URL) -> EnhanceRunMarker? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(EnhanceRunMarker.self, from: data)
    }
}
