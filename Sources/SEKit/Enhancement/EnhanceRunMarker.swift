import Foundation

/// `OUT/.sekit-enhance.json`: which `enhance` run wrote a folder, so that `sekit score --enhanced
/// OUT` records that run as its parent (lineage score → enhance → mix, for `runs diff`). The shards
/// of one command write into one folder, each its own marker `.sekit-enhance-shard-I-of-N.json`
/// (each shard's run is in its own catalogue, and a score shard takes the one in its catalogue).
public struct EnhanceRunMarker: Codable, Sendable, Equatable {
    /// File name inside the output folder (hidden: scoring by file name lists audio files only).
    public static let fileName = ".sekit-enhance.json"
    /// The catalogue the run is recorded in (absolute path), nil when not recorded.
    public var catalog: String?
    public var runID: RunID?
    public var method: String

    enum CodingKeys: String, CodingKey { case catalog, runID = "run_id", method }

    /// The marker's file name for a run of `shard`.
    static func fileName(shard: Shard) -> String {
        shard.count == 1 ? fileName : ".sekit-enhance-shard-\(shard.index)-of-\(shard.count).json"
    }

    /// Writes the marker of a run of `shard` atomically.
    func write(in folder: URL, shard: Shard = .whole) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: folder.appendingPathComponent(Self.fileName(shard: shard)))
    }

    /// The marker of `folder`'s unsharded run, if it has a readable one.
    public static func read(in folder: URL) -> EnhanceRunMarker? {
        read(folder.appendingPathComponent(fileName))
    }

    /// Every readable marker of `folder` (the unsharded run's and each shard's), by file name.
    public static func all(in folder: URL) -> [EnhanceRunMarker] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(".sekit-enhance") && $0.hasSuffix(".json") }.sorted()
            .compactMap { read(folder.appendingPathComponent($0)) }
    }

    private static func read(_ file: URL) -> EnhanceRunMarker? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(EnhanceRunMarker.self, from: data)
    }
}
