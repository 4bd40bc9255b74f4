import Foundation

/// `sekit features check FILE`: whether a feature file can be read whole. For a merged file
/// (`sekit features merge`, HDF5 virtual datasets) every mapped shard file must be present and hold
/// the rows the merged file maps onto it; HDF5 itself reads a missing shard's rows as zeros.
public struct FeatureFileCheck: Sendable, Codable {
    public var file: String
    public var clips: Int
    public var streams: [String]
    /// Every virtual stream's mappings (empty for an ordinary file).
    public var mappings: [FeatureShardMapping]

    /// The mappings that are not sound, as lines.
    public var problems: [String] { mappings.compactMap(\.problemLine) }
    public var isSound: Bool { problems.isEmpty }
    /// The distinct shard files mapped.
    public var shardFiles: [String] { Array(Set(mappings.map(\.path))).sorted() }

    /// Checks the feature file at `url`: its index against its streams, and every shard a merged
    /// file maps onto.
    /// - Throws: ``FeatureFileError`` when it cannot be opened as a feature file.
    public static func run(_ url: URL) throws(FeatureFileError) -> FeatureFileCheck {
        let reader = try FeatureFileReader(url: url, verifyingShards: false)
        return FeatureFileCheck(file: url.path, clips: reader.clips.count, streams: reader.streams.map(\.name),
                                mappings: try reader.shardMappings())
    }

    /// One line per problem, then the verdict.
    public var text: String {
        var lines = ["\(file): \(clips) clips, streams \(streams.joined(separator: ", "))"]
        if !mappings.isEmpty {
            lines.append("merged file: \(mappings.count) virtual mappings onto \(shardFiles.count) shard files")
        }
        lines += problems
        lines.append(isSound ? "feature file is sound"
            : "feature file needs attention: \(problems.count) mappings onto missing or changed shards read as zeros")
        return lines.joined(separator: "\n") + "\n"
    }
}
