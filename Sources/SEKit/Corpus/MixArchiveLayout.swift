import Foundation

/// How a corpus mixed with `sekit mix --archive` holds its clips, recorded in `OUT/archive.json`
/// (a public layout; see docs/archives.md): shards of ``clipsPerShard`` clips in the manifest's clip
/// order, shard k holding clips [k·N, (k+1)·N), named `shard-000000.tar`, `shard-000001.tar`, ...
/// in OUT. A `tar` shard holds each clip as WebDataset members `CLIP_ID.noisy.wav`,
/// `CLIP_ID.clean.wav`, `CLIP_ID.noise.wav` (the bytes the folder layout writes to
/// `noisy/CLIP_ID.wav`, ...) and `CLIP_ID.json` (the clip's manifest record).
///
/// The manifest is the same as the folder layout's (its `noisy`, `clean` and `noise` name the
/// stems as the folder layout does: `noisy/CLIP_ID.wav` is the member `CLIP_ID.noisy.wav` of the
/// clip's shard), so everything derived from it is the same whichever layout a mix used.
public struct MixArchiveLayout: Sendable, Codable, Equatable {
    /// The archive format.
    public enum Format: String, Sendable, Codable, CaseIterable {
        /// WebDataset tar shards.
        case tar
    }

    public var format: Format
    /// Clips per shard (the last shard may hold fewer).
    public var clipsPerShard: Int
    /// Clips the mix planned (so readers know the shards without the manifest).
    public var clipCount: Int

    enum CodingKeys: String, CodingKey { case format, clipsPerShard = "clips_per_shard", clipCount = "clip_count" }

    /// `--archive-clips` when not given.
    public static let defaultClipsPerShard = 1000
    /// The stems of a clip, as named in member names and manifest folders.
    public static let stems = ["noisy", "clean", "noise"]

    public init(format: Format, clipsPerShard: Int, clipCount: Int) {
        self.format = format; self.clipsPerShard = clipsPerShard; self.clipCount = clipCount
    }

    /// Number of shards.
    public var shardCount: Int { (clipCount + clipsPerShard - 1) / clipsPerShard }

    /// The shard holding clip `index`.
    public func shard(ofClip index: Int) -> Int { index / clipsPerShard }

    /// The clip indices of shard `k`.
    public func clips(ofShard k: Int) -> Range<Int> { (k * clipsPerShard)..<min(clipCount, (k + 1) * clipsPerShard) }

    /// `shard-000000.tar`: the file name of shard `k`.
    public func shardName(_ k: Int) -> String { String(format: "shard-%06d.", k) + format.rawValue }

    /// The member holding a clip's stem (`noisy`, `clean`, `noise`): `CLIP_ID.noisy.wav`.
    public static func memberName(clipID: String, stem: String) -> String { "\(clipID).\(stem).wav" }

    /// The member holding a clip's manifest record: `CLIP_ID.json`.
    public static func recordMemberName(clipID: String) -> String { "\(clipID).json" }

    /// `OUT/archive.json`.
    public static func file(in corpus: URL) -> URL { corpus.appendingPathComponent("archive.json") }

    /// The layout of the corpus at `corpus`; nil for a folder corpus (no `archive.json`).
    /// - Throws: ``MixError/notACorpus(path:reason:)`` when `archive.json` does not parse.
    public static func read(corpus: URL) throws -> MixArchiveLayout? {
        let url = file(in: corpus)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            let layout = try JSONDecoder().decode(MixArchiveLayout.self, from: data)
            guard layout.clipsPerShard > 0, layout.clipCount >= 0 else {
                throw MixError.notACorpus(path: url.path, reason: "clips_per_shard must be positive")
            }
            return layout
        } catch let error as MixError {
            throw error
        } catch {
            throw MixError.notACorpus(path: url.path, reason: "not an archive description: \(error)")
        }
    }

    /// The bytes of `archive.json` (sorted keys, pretty-printed).
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
