import Foundation

/// A mixed corpus's stems, wherever its mix put them: files under `noisy/`, `clean/` and `noise/`,
/// or members of its archive shards (``MixArchiveLayout``). Commands name a stem as the manifest
/// does (`CORPUS/noisy/CLIP_ID.wav`) and read it through ``location(of:)``, so a corpus written as
/// archives reads exactly as its folder form. Thread-safe; each shard's index is read once.
public final class MixCorpusAudio: @unchecked Sendable {
    /// The corpus folder.
    public let root: URL
    /// How its clips are stored; nil: as files.
    public let archive: MixArchiveLayout?
    private let rootPrefix: String
    private let lock = NSLock()
    private var indexes: [String: Result<TarIndex, AudioError>] = [:]

    /// The stems of the corpus at `corpus`.
    /// - Throws: ``CorpusError/notACorpus(path:reason:)`` when its `archive.json` does not parse.
    public init(corpus: URL) throws {
        root = corpus
        archive = try MixArchiveLayout.read(corpus: corpus)
        rootPrefix = corpus.standardizedFileURL.path + "/"
    }

    /// Where the stem `url` (`CORPUS/noisy/CLIP_ID.wav`, as the manifest names it) is: the file
    /// itself in a folder corpus (and for any path outside the corpus), the member of its shard
    /// in an archive corpus.
    /// - Throws: `AudioError/unreadable(path:reason:)` naming the shard and member when the
    ///   shard is missing, not a valid tar, or lacks the member.
    public func location(of url: URL) throws -> AudioLocation {
        guard let archive, let (clipID, stem) = stemName(url) else { return AudioLocation(url) }
        let member = archive.memberName(clipID: clipID, stem: stem)
        guard let index = Self.clipIndex(clipID) else {
            throw AudioError.unreadable(path: url.path, reason: "\(clipID) is not a clip id of the form s<seed>-<index>")
        }
        let shardFile = archive.stemFile(stem, shard: archive.shard(ofClip: index))
        let shardPath = root.appendingPathComponent(shardFile).path
        let tar: TarIndex
        do { tar = try self.index(ofShard: shardPath) } catch {
            // Named by the member asked for; the reason says where the shard goes wrong.
            let reason: String
            switch error {
            case .fileNotFound: reason = "the archive shard \(shardFile) is missing"
            case .unreadable(_, let why): reason = why
            default: reason = error.description
            }
            throw AudioError.unreadable(path: shardPath + ":" + member, reason: reason)
        }
        guard let found = tar.byName[member] else {
            throw AudioError.unreadable(path: shardPath + ":" + member,
                                        reason: "not in the archive shard (it holds \(tar.members.count) members)")
        }
        try Self.checkWAVLength(found, in: shardPath)
        return AudioLocation(member: member, of: shardPath, bytes: found.bytes)
    }

    /// Refuses a WAV member whose length is not what its RIFF header says (a member replaced by a
    /// shorter or longer one): libsndfile would read what is there and hand back a shorter clip.
    private static func checkWAVLength(_ member: TarIndex.Member, in shardPath: String) throws {
        guard let handle = FileHandle(forReadingAtPath: shardPath) else { throw AudioError.fileNotFound(path: shardPath) }
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(member.bytes.lowerBound))
        let head = [UInt8]((try handle.read(upToCount: min(12, member.bytes.count))) ?? Data())
        guard head.count == 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WAVE".utf8) else { return }
        let promised = 8 + head[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard promised == member.bytes.count else {
            throw AudioError.unreadable(path: shardPath + ":" + member.name,
                                        reason: "the member holds \(member.bytes.count) bytes, its WAV header promises \(promised)")
        }
    }

    /// Reads a stem (``location(of:)``, then `AudioFile/read(_:channel:sampleRate:)`).
    public func read(_ url: URL, channel: ChannelPolicy = .average, sampleRate: Int? = nil) throws -> AudioBuffer {
        try AudioFile.read(location(of: url), channel: channel, sampleRate: sampleRate)
    }

    /// The header of a stem.
    public func info(_ url: URL) throws -> AudioFileInfo { try AudioFile.info(location(of: url)) }

    /// Where a path names a stem of an archive corpus (`CORPUS/noisy/CLIP_ID.wav` whose
    /// `CORPUS/archive.json` exists): that member; otherwise the file itself (`sekit info`).
    public static func location(ofPath url: URL) throws -> AudioLocation {
        let corpus = url.deletingLastPathComponent().deletingLastPathComponent()
        guard !FileManager.default.fileExists(atPath: url.path),
              FileManager.default.fileExists(atPath: MixArchiveLayout.file(in: corpus).path) else { return AudioLocation(url) }
        return try MixCorpusAudio(corpus: corpus).location(of: url)
    }

    /// The clip id and stem of `CORPUS/STEM/CLIP_ID.wav`; nil for any other path.
    private func stemName(_ url: URL) -> (clipID: String, stem: String)? {
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(rootPrefix) else { return nil }
        let parts = path.dropFirst(rootPrefix.count).split(separator: "/")
        guard parts.count == 2, MixArchiveLayout.stems.contains(String(parts[0])), parts[1].hasSuffix(".wav") else { return nil }
        return (String(parts[1].dropLast(4)), String(parts[0]))
    }

    /// The index in a clip id `s<seed>-<index>`.
    static func clipIndex(_ clipID: String) -> Int? {
        guard clipID.hasPrefix("s"), let dash = clipID.lastIndex(of: "-") else { return nil }
        return Int(clipID[clipID.index(after: dash)...])
    }

    private func index(ofShard path: String) throws(AudioError) -> TarIndex {
        lock.lock()
        defer { lock.unlock() }
        if let known = indexes[path] { return try known.get() }
        let result: Result<TarIndex, AudioError>
        do { result = .success(try TarIndex(path: path)) } catch { result = .failure(error) }
        indexes[path] = result
        return try result.get()
    }
}
