import Foundation

/// `sekit mix --archive FORMAT --archive-clips N`: write the clips as archive shards of N clips
/// (``MixArchiveLayout``) rather than as files.
public struct MixArchiveRequest: Sendable, Equatable {
    public var format: MixArchiveLayout.Format
    /// Clips per shard.
    public var clipsPerShard: Int

    public init(format: MixArchiveLayout.Format, clipsPerShard: Int = MixArchiveLayout.defaultClipsPerShard) {
        self.format = format; self.clipsPerShard = clipsPerShard
    }

    /// The layout of a mix of `clipCount` clips. With `--shard I/N`, command shard I writes the
    /// archive shards k with k mod N = I − 1 (whole shards, each byte-identical to an unsharded
    /// mix's), so there must be at least N archive shards.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` for `archive-clips` below 1, or
    ///   making fewer archive shards than command shards.
    public func layout(clipCount: Int, shard: Shard) throws -> MixArchiveLayout {
        guard clipsPerShard >= 1 else {
            throw MixError.invalidOption(name: "archive-clips", value: "\(clipsPerShard)", reason: "must be at least 1")
        }
        let layout = MixArchiveLayout(format: format, clipsPerShard: clipsPerShard, clipCount: clipCount,
                                      folder: MixArchiveLayout.folder(of: format))
        if shard.count > 1 && layout.shardCount < shard.count {
            throw MixError.invalidOption(
                name: "archive-clips", value: "\(clipsPerShard)",
                reason: "makes \(layout.shardCount) archive shard(s) of the \(clipCount) clips, "
                    + "fewer than the \(shard.count) command shards "
                    + "(--shard): each command shard writes whole archive shards; ask for at most \(clipCount / shard.count) clips a shard")
        }
        return layout
    }
}

/// Checks and records (`OUT/archive.json`) how a mix stores its clips: a folder holds its clips
/// one way, so resuming a mix in the other layout is refused (or, with `--overwrite`, replaces it).
enum MixArchiveClaim {
    /// - Parameter replaced: whether ``MixSpecFile/claim(layout:planner:overwrite:)`` replaced a
    ///   different mix (its archive shards and `archive.json` go too).
    /// - Returns: whether this claim replaced the folder's clips (written in the other layout).
    static func claim(layout: MixCorpusLayout, archive: MixArchiveLayout?, replaced: Bool, overwrite: Bool) throws -> Bool {
        let fm = FileManager.default
        let file = MixArchiveLayout.file(in: layout.root)
        let present = fm.fileExists(atPath: file.path)
        let existing = present ? try? MixArchiveLayout.read(corpus: layout.root) : nil
        var replacedHere = false
        let hasFiles = !((try? fm.contentsOfDirectory(atPath: layout.noisyFolder.path)) ?? []).filter { !$0.hasPrefix(".") }.isEmpty
        if !replaced && (present ? existing != archive : archive != nil && hasFiles) {
            let reason = "holds this mix written \(describe(present ? existing : nil, unreadable: present && existing == nil)), "
                + "asked for \(describe(archive)); run it as it was made, choose another folder, or ask for it to be overwritten"
            guard overwrite else { throw MixError.outputConflict(path: layout.root.path, reason: reason) }
            MixSpecFile.removeMix(layout: layout)
            replacedHere = true
        } else if replaced {
            MixSpecFile.removeMix(layout: layout)
        }
        if let archive, !present || existing != archive || replaced || replacedHere {
            try AtomicFile.write(try archive.encoded(), to: file)
        }
        return replacedHere
    }

    private static func describe(_ archive: MixArchiveLayout?, unreadable: Bool = false) -> String {
        if unreadable { return "with an unreadable archive.json" }
        guard let archive else { return "as files (noisy/, clean/, noise/)" }
        return "as \(archive.format.rawValue) shards of \(archive.clipsPerShard) clips\(archive.folder.map { " in \($0)/" } ?? "")"
    }
}
