import Foundation

/// How a corpus mixed with `sekit mix --archive` holds its clips, recorded in `OUT/archive.json`
/// (a public layout; see docs/archives.md): shards of ``clipsPerShard`` clips in the manifest's clip
/// order, shard k holding clips [k·N, (k+1)·N), named `shard-000000.tar`, `shard-000001.tar`, ...
/// in OUT (Shar shards in a folder of their own, ``folder``). A `tar` shard holds each clip as WebDataset members `CLIP_ID.noisy.wav`,
/// `CLIP_ID.clean.wav`, `CLIP_ID.noise.wav` (the bytes the folder layout writes to
/// `noisy/CLIP_ID.wav`, ...) and `CLIP_ID.json` (the clip's manifest record). A `shar` shard is
/// lhotse's Shar layout: `cuts.000000.jsonl.gz` and one tar per audio field, `recording.000000.tar`
/// (the noisy stems), `clean.000000.tar` and `noise.000000.tar`, each holding `CLIP_ID.wav` and
/// `CLIP_ID.json` (the recording's Shar placeholder) per clip.
///
/// The manifest is the same as the folder layout's (its `noisy`, `clean` and `noise` name the
/// stems as the folder layout does: `noisy/CLIP_ID.wav` is the member `CLIP_ID.noisy.wav` of the
/// clip's shard), so everything derived from it is the same whichever layout a mix used.
public struct MixArchiveLayout: Sendable, Codable, Equatable {
    /// The archive format.
    public enum Format: String, Sendable, Codable, CaseIterable {
        /// WebDataset tar shards.
        case tar
        /// lhotse Shar shards.
        case shar
    }

    public var format: Format
    /// Clips per shard (the last shard may hold fewer).
    public var clipsPerShard: Int
    /// Clips the mix planned (so readers know the shards without the manifest).
    public var clipCount: Int
    /// The folder inside OUT that holds the shard files (`shar` for Shar corpora, so that lhotse's
    /// `CutSet.from_shar(in_dir=OUT/shar)` reads it as it is: nothing else shares that folder); nil for
    /// the shards in OUT itself (tar corpora, and Shar corpora mixed before SEKit gave them a folder).
    public var folder: String?

    enum CodingKeys: String, CodingKey { case format, clipsPerShard = "clips_per_shard", clipCount = "clip_count", folder }

    /// The folder of a format's shards in the corpora mixed now.
    public static func folder(of format: Format) -> String? { format == .shar ? "shar" : nil }

    /// `--archive-clips` when not given.
    public static let defaultClipsPerShard = 1000
    /// The stems of a clip, as named in member names and manifest folders.
    public static let stems = ["noisy", "clean", "noise"]

    public init(format: Format, clipsPerShard: Int, clipCount: Int, folder: String? = nil) {
        self.format = format; self.clipsPerShard = clipsPerShard; self.clipCount = clipCount; self.folder = folder
    }

    /// `name` inside ``folder``: a path relative to OUT.
    private func inFolder(_ name: String) -> String { folder.map { "\($0)/\(name)" } ?? name }

    /// Number of shards.
    public var shardCount: Int { (clipCount + clipsPerShard - 1) / clipsPerShard }

    /// The shard holding clip `index`.
    public func shard(ofClip index: Int) -> Int { index / clipsPerShard }

    /// The clip indices of shard `k`.
    public func clips(ofShard k: Int) -> Range<Int> { (k * clipsPerShard)..<min(clipCount, (k + 1) * clipsPerShard) }

    /// The files of shard `k`, the one that marks it finished (renamed last) last:
    /// `shard-000000.tar`; or `recording.000000.tar`, `clean.000000.tar`, `noise.000000.tar`, `cuts.000000.jsonl.gz`.
    public func files(ofShard k: Int) -> [String] {
        switch format {
        case .tar: [inFolder(String(format: "shard-%06d.tar", k))]
        case .shar: MixArchiveLayout.stems.map { stemFile($0, shard: k) } + [inFolder(String(format: "cuts.%06d.jsonl.gz", k))]
        }
    }

    /// The file of shard `k` that holds a stem (`noisy`, `clean`, `noise`).
    public func stemFile(_ stem: String, shard k: Int) -> String {
        switch format {
        case .tar: files(ofShard: k)[0]
        case .shar: inFolder(String(format: "%@.%06d.tar", stem == "noisy" ? "recording" : stem, k))
        }
    }

    /// The member holding a clip's stem: `CLIP_ID.noisy.wav` (tar), `CLIP_ID.wav` (shar, in the stem's tar).
    public func memberName(clipID: String, stem: String) -> String {
        format == .tar ? "\(clipID).\(stem).wav" : "\(clipID).wav"
    }

    /// Whether a file name is one an archive layout writes (`--overwrite` removes them).
    public static func isShardFile(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        guard parts.count >= 3 || name.hasPrefix("shard-") else { return false }
        if name.hasPrefix("shard-") { return name.hasSuffix(".tar") }
        return ["recording", "clean", "noise", "cuts"].contains(String(parts[0])) && parts[1].count == 6 && parts[1].allSatisfy(\.isNumber)
    }

    /// The member holding a clip's manifest record: `CLIP_ID.json`.
    public static func recordMemberName(clipID: String) -> String { "\(clipID).json" }

    /// `OUT/archive.json`.
    public static func file(in corpus: URL) -> URL { corpus.appendingPathComponent("archive.json") }

    /// The layout of the corpus at `corpus`; nil for a folder corpus (no `archive.json`).
    /// - Throws: ``CorpusError/notACorpus(path:reason:)`` when `archive.json` does not parse.
    public static func read(corpus: URL) throws -> MixArchiveLayout? {
        let url = file(in: corpus)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            let layout = try JSONDecoder().decode(MixArchiveLayout.self, from: data)
            guard layout.clipsPerShard > 0, layout.clipCount >= 0 else {
                throw CorpusError.notACorpus(path: url.path, reason: "clips_per_shard must be positive")
            }
            return layout
        } catch let error as CorpusError {
            throw error
        } catch {
            throw CorpusError.notACorpus(path: url.path, reason: "not an archive description: \(error)")
        }
    }

    /// The bytes of `archive.json` (sorted keys, pretty-printed).
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
