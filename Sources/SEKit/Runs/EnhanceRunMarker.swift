import Foundation

/// `OUT/.sekit-enhance.json`: which `enhance` run wrote a folder, so that `sekit score --enhanced
/// OUT` records that run as its parent (lineage score → enhance → mix, for `runs diff`).
public struct EnhanceRunMarker: Codable, Sendable, Equatable {
    /// File name inside the output folder (hidden: scoring by file name lists audio files only).
    public static let fileName = ".sekit-enhance.json"

    /// The marker's file name for a shard: `.sekit-enhance.json` unsharded, else
    /// `.sekit-enhance-shard-I-of-N.json`, since the N shards of one command write one folder, each
    /// recording its run in its own catalogue.
    public static func fileName(shard: Shard) -> String {
        shard == .whole ? fileName : ".sekit-enhance\(shard.fileSuffix).json"
    }
    /// The catalogue the run is recorded in (absolute path), nil when not recorded.
    public var catalog: String?
    public var runID: RunID?
    public var method: String

    enum CodingKeys: String, CodingKey { case catalog, runID = "run_id", method }

    /// Writes the marker atomically (the shard's own file for a shard).
    func write(in folder: URL, shard: Shard = .whole) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: folder.appendingPathComponent(Self.fileName(shard: shard)))
    }

    /// The marker of `folder`, if it has a readable one.
    public static func read(in folder: URL) -> EnhanceRunMarker? {
        read(file: folder.appendingPathComponent(fileName))
    }

    /// Every readable marker of `folder`: the unsharded one first, then the shards' in name order.
    public static func all(in folder: URL) -> [EnhanceRunMarker] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix(".sekit-enhance-shard-") && $0.hasSuffix(".json") }.sorted()
        return ([fileName] + names).compactMap { read(file: folder.appendingPathComponent($0)) }
    }

    static func read(file: URL) -> EnhanceRunMarker? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(EnhanceRunMarker.self, from: data)
    }
}
