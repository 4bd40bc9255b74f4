import Foundation

/// One block of rows of a merged feature file's stream (an HDF5 virtual dataset, `sekit features
/// merge`) and the shard file it maps onto, as checked by ``FeatureFileCheck``: HDF5 reads the rows
/// of a missing or replaced shard as zeros without an error, so SEKit checks them before reading.
public struct FeatureShardMapping: Sendable, Codable, Equatable {
    /// The stream (virtual dataset).
    public var stream: String
    /// The shard file as the merged file names it (relative to its folder, or absolute).
    public var shard: String
    /// The shard file's path.
    public var path: String
    /// The dataset in the shard file.
    public var dataset: String
    /// The rows of the stream it holds: `firstRow ..< firstRow + rows`.
    public var firstRow: Int
    public var rows: Int
    /// Values per row.
    public var columns: Int
    /// What is wrong (the file is missing, not HDF5, lacks the dataset, has another shape); nil when sound.
    public var problem: String?

    /// The mappings of every virtual stream of `file` (the merged file at `path`, whose index is
    /// `clips`), each checked: its shard file exists, opens, holds `dataset` as `[rows, columns]`,
    /// and its index lists the clips the merged index places in those rows (not another shard's or
    /// another export's file of the same size). Relative shard names are resolved against the
    /// merged file's folder, as HDF5 does. O(streams × shards) file opens.
    static func check(file: HDF5Handle, datasets: [String: HDF5Handle], streams: [FeatureStreamInfo], clips: [FeatureClip],
                      path: String) throws(HDF5Error) -> [FeatureShardMapping] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var mappings: [FeatureShardMapping] = []
        var shardClips: [String: [String]?] = [:]
        for stream in streams {
            guard let dataset = datasets[stream.name], let sources = try dataset.virtualSources() else { continue }
            for source in sources {
                let shardPath = source.file.hasPrefix("/") ? source.file
                    : folder.appendingPathComponent(source.file).standardizedFileURL.path
                var mapping = FeatureShardMapping(stream: stream.name, shard: source.file, path: shardPath, dataset: source.dataset,
                                                  firstRow: source.firstRow, rows: source.rows, columns: stream.bins)
                mapping.problem = problem(of: mapping)
                if mapping.problem == nil {
                    if shardClips[shardPath] == nil {
                        let reader = try? FeatureFileReader(url: URL(fileURLWithPath: shardPath), verifyingShards: false)
                        shardClips[shardPath] = .some(reader?.clips.map(\.clipID))
                    }
                    let listed = clips.filter { $0.offset >= source.firstRow && $0.offset < source.firstRow + source.rows }.map(\.clipID)
                    if shardClips[shardPath]! != listed {
                        mapping.problem = "its clips are not the \(listed.count) the merged file lists in these rows "
                            + "(another shard's or another export's file under its name)"
                    }
                }
                mappings.append(mapping)
            }
        }
        return mappings
    }

    /// What is wrong with the mapped shard, or nil.
    private static func problem(of mapping: FeatureShardMapping) -> String? {
        guard FileManager.default.fileExists(atPath: mapping.path) else { return "the shard file is missing" }
        do {
            let shape = try { () throws(HDF5Error) -> [Int]? in
                let shard = try HDF5Handle.openFile(path: mapping.path)
                guard try shard.linkExists(mapping.dataset.hasPrefix("/") ? String(mapping.dataset.dropFirst()) : mapping.dataset) else {
                    return nil
                }
                return try shard.openDataset(mapping.dataset).datasetSpace().dimensions()
            }()
            guard let shape else { return "the shard file has no dataset \(mapping.dataset)" }
            if shape != [mapping.rows, mapping.columns] {
                return "its dataset \(mapping.dataset) is \(shape.map(String.init).joined(separator: " x ")), "
                    + "not the \(mapping.rows) x \(mapping.columns) the merged file maps (the shard was replaced or truncated)"
            }
            return nil
        } catch {
            return "the shard file cannot be read as HDF5: \(error)"
        }
    }

    /// "stream 'noisy' rows 0..<1008: shard PATH: PROBLEM" (nil when sound).
    public var problemLine: String? {
        problem.map { "stream '\(stream)' rows \(firstRow)..<\(firstRow + rows): shard \(path): \($0)" }
    }
}
