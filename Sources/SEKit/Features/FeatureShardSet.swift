import Foundation

/// The shard files of one sharded export (`sekit features --shard i/N`, i = 1...N), opened and
/// checked to belong together, in shard order: what `sekit features merge` joins.
///
/// Shards belong together when each is a shard (root attribute `shard`), their shard counts agree,
/// every `i` of `1...N` is there exactly once, they come from the same corpus (`corpus` path and
/// ``FeatureFileLayout/corpusMixSHA256Attribute``), every other root attribute is equal except the
/// run ids (``FeatureFileLayout/shardSpecificAttributes``), their statistics describe the same
/// split and streams, and no clip is in two of them.
struct FeatureShardSet {
    /// One opened shard.
    struct Member {
        var shard: Shard
        var reader: FeatureFileReader
        /// `/index/clip_index`, one per clip.
        var clipIndices: [Int]
        var url: URL { reader.url }
    }

    /// The shards in shard order (1...N).
    let members: [Member]
    /// The shards' common root attributes (those of shard 1, run ids included).
    let attributes: [String: AttributeValue]
    /// Streams in file order (the `streams` attribute), with their bins.
    let streams: [StreamSpec]
    let dtype: FeatureDType
    let compression: FeatureCompression
    /// Streams that have statistics, and the split they describe.
    let statisticsStreams: [String]
    let statisticsSplit: String

    var count: Int { members.count }

    /// Opens and checks `urls` (in any order).
    /// - Throws: ``FeatureFileError`` naming the first file at fault.
    init(_ urls: [URL]) throws {
        guard !urls.isEmpty else { throw FeatureFileError.noShards }
        var seen: [String: URL] = [:]
        var opened: [Member] = []
        for url in urls {
            let resolved = FilePaths.resolved(url.path)
            guard seen[resolved] == nil else { throw FeatureFileError.sameFileTwice(path: url.path) }
            seen[resolved] = url
            opened.append(try Self.open(url))
        }
        let reference = opened[0]
        var byIndex: [Int: Member] = [:]
        for member in opened {
            guard member.shard.count == reference.shard.count else {
                throw FeatureFileError.shardMismatch(path: member.url.path, reference: reference.url.path,
                                                 reason: "it is shard \(member.shard), the other is shard \(reference.shard)")
            }
            if let other = byIndex[member.shard.index] {
                throw FeatureFileError.duplicateShard(path: member.url.path, other: other.url.path, shard: member.shard.description)
            }
            byIndex[member.shard.index] = member
            try Self.checkSameExport(member, as: reference)
        }
        let missing = (1...reference.shard.count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw FeatureFileError.missingShards(missing: missing.map { Shard(index: $0, count: reference.shard.count).description },
                                                  given: byIndex.keys.sorted().map { byIndex[$0]!.shard.description })
        }
        members = byIndex.keys.sorted().map { byIndex[$0]! }
        try Self.checkClipsDisjoint(members)
        let first = members[0]
        attributes = first.reader.attributes
        typealias Name = FeatureFileAttributes.Name
        let names = (attributes[Name.streams]?.stringValue ?? "").split(separator: ",").map(String.init)
        streams = try names.map { name in StreamSpec(name, bins: try first.reader.stream(name).bins) }
        guard let dtype = FeatureDType(rawValue: attributes[Name.dtype]?.stringValue ?? ""),
              let compression = try? FeatureCompression(parsing: attributes[Name.compression]?.stringValue ?? ""), !streams.isEmpty else {
            throw FeatureFileError.notAFeatureFile(path: first.url.path, reason: "its streams, dtype or compression attributes are missing")
        }
        self.dtype = dtype
        self.compression = compression
        statisticsStreams = try first.reader.statisticsStreams()
        statisticsSplit = try statisticsStreams.first.map { try first.reader.statistics(stream: $0).split } ?? ""
    }

    /// Opens one file and reads its shard and clip indices.
    private static func open(_ url: URL) throws -> Member {
        let reader: FeatureFileReader
        do { reader = try FeatureFileReader(url: url) } catch {
            switch error {
            case .fileNotFound: throw FeatureFileError.notAFeatureFile(path: url.path, reason: "no such file")
            case .hdf5(_, let call, let detail): throw FeatureFileError.notAFeatureFile(path: url.path, reason: "\(call) failed: \(detail)")
            case .notAFeatureFile(_, let reason): throw FeatureFileError.notAFeatureFile(path: url.path, reason: reason)
            default: throw FeatureFileError.notAFeatureFile(path: url.path, reason: "\(error)")
            }
        }
        guard let text = reader.attributes[FeatureFileLayout.shardAttribute]?.stringValue else {
            let merged = reader.attributes[FeatureFileLayout.mergedAttribute] != nil
            throw FeatureFileError.notAShard(path: url.path, reason: merged
                ? "it is a merged file (attribute `merged`); merge the shards themselves"
                : "no `shard` attribute (an unsharded export; shards are written by sekit features --shard i/N)")
        }
        guard let shard = try? Shard(parsing: text), shard.count > 1 else {
            throw FeatureFileError.notAShard(path: url.path, reason: "its `shard` attribute is '\(text)', not i/N with N > 1")
        }
        guard let clipIndices = reader.clipIndices else {
            throw FeatureFileError.notAShard(path: url.path, reason: "no /index/\(FeatureFileLayout.clipIndexDataset)")
        }
        return Member(shard: shard, reader: reader, clipIndices: clipIndices)
    }

    /// Refuses a shard of another corpus, with other parameters or other statistics than `reference`.
    private static func checkSameExport(_ member: Member, as reference: Member) throws {
        let ours = member.reader.attributes, theirs = reference.reader.attributes
        let path = member.url.path, other = reference.url.path
        for name in [FeatureFileAttributes.Name.corpus, FeatureFileLayout.corpusMixSHA256Attribute] where ours[name] != theirs[name] {
            let what = name == FeatureFileAttributes.Name.corpus ? "corpus" : "mix.json SHA-256"
            throw FeatureFileError.differentCorpus(path: path, reference: other,
                reason: "\(what) \(ours[name].map { "'\($0)'" } ?? "absent"), the other has \(theirs[name].map { "'\($0)'" } ?? "absent")")
        }
        let ignored = FeatureFileLayout.shardSpecificAttributes
        for name in Set(ours.keys).union(theirs.keys).sorted() where !ignored.contains(name) && ours[name] != theirs[name] {
            throw FeatureFileError.shardMismatch(path: path, reference: other,
                reason: "attribute \(name) = \(ours[name].map { "'\($0)'" } ?? "absent"), "
                    + "the other has \(theirs[name].map { "'\($0)'" } ?? "absent")")
        }
        let streams = member.reader.streams.map { "\($0.name)[\($0.bins)] \($0.bytesPerValue)B" }
        let referenceStreams = reference.reader.streams.map { "\($0.name)[\($0.bins)] \($0.bytesPerValue)B" }
        guard streams == referenceStreams else {
            throw FeatureFileError.shardMismatch(path: path, reference: other,
                reason: "streams \(streams.joined(separator: ", ")), the other has \(referenceStreams.joined(separator: ", "))")
        }
        let statistics = try describeStatistics(member.reader), referenceStatistics = try describeStatistics(reference.reader)
        guard statistics == referenceStatistics else {
            throw FeatureFileError.shardMismatch(path: path, reference: other,
                reason: "statistics of \(statistics), the other has statistics of \(referenceStatistics)")
        }
    }

    /// `STREAM,STREAM over split S` for a file's `/stats`.
    private static func describeStatistics(_ reader: FeatureFileReader) throws -> String {
        let names = try reader.statisticsStreams()
        let split = try names.first.map { try reader.statistics(stream: $0).split } ?? ""
        return "\(names.joined(separator: ",")) over split '\(split)'"
    }

    /// Refuses a clip id or clip index found in two shards.
    private static func checkClipsDisjoint(_ members: [Member]) throws {
        var ids: [String: URL] = [:], indices: [Int: URL] = [:]
        for member in members {
            for (clip, index) in zip(member.reader.clips, member.clipIndices) {
                if let other = ids.updateValue(member.url, forKey: clip.clipID) ?? indices.updateValue(member.url, forKey: index) {
                    throw FeatureFileError.shardMismatch(path: member.url.path, reference: other.path,
                                                     reason: "clip \(clip.clipID) (index \(index)) is in both")
                }
            }
        }
    }

    /// The run id a folded run of the shards has: `features_run_id` is `RunID.folding(_:)` over
    /// the shards' (empty when none has one); `mix_run_id` is the one mix run the shards name, else
    /// (a corpus mixed in shards: each file lists the mix shard runs, comma-separated) the folding
    /// of the distinct ones, the id `sekit catalog merge` gives the folded mix run.
    var runIDs: (mix: String, features: String) {
        func values(_ name: String) -> [String] { members.map { $0.reader.attributes[name]?.stringValue ?? "" } }
        let features = values(FeatureFileAttributes.Name.featuresRunID).filter { !$0.isEmpty }
        let mixes = Set(values(FeatureFileAttributes.Name.mixRunID).flatMap { $0.split(separator: ",").map(String.init) }).sorted()
        let mix = mixes.count <= 1 ? (mixes.first ?? "") : RunID.folding(mixes.map { RunID($0) }).rawValue
        return (mix, features.isEmpty ? "" : RunID.folding(features.map { RunID($0) }).rawValue)
    }

    /// Every clip of the shards in corpus order (clip index), as (shard position, clip): the
    /// order of the unsharded export.
    var clipsInCorpusOrder: [(member: Int, clip: FeatureClip)] {
        var all: [(index: Int, member: Int, clip: FeatureClip)] = []
        for (position, member) in members.enumerated() {
            for (clip, index) in zip(member.reader.clips, member.clipIndices) { all.append((index, position, clip)) }
        }
        return all.sorted { $0.index < $1.index }.map { ($0.member, $0.clip) }
    }
}
