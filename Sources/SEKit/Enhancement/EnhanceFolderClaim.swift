import Foundation

/// `OUT/.sekit-enhance-folder.json`: what an `enhance` output folder holds (the method, its
/// source, split, format and settings, and the number of shards that write it), written before
/// the first clip. A later `enhance` into the folder must ask for the same (it then redoes or
/// completes it, or is another shard of the same command); anything else would mix the clips of
/// two runs in one folder, which `score` would attribute to one, so it is refused unless
/// `overwrite`.
struct EnhanceFolderClaim: Codable, Equatable {
    static let fileName = ".sekit-enhance-folder.json"

    var format = "sekit-enhance-folder"
    var formatVersion = 1
    /// The run's parameters without the shard number (``EnhanceJob/params(_:)``).
    var params: [String: String]
    /// How many shards write the folder (1: one unsharded run).
    var shards: Int

    enum CodingKeys: String, CodingKey { case format, formatVersion = "format_version", params, shards }

    init(params: [String: String], shards: Int) {
        var params = params
        params["shard"] = nil
        self.params = params
        self.shards = shards
    }

    /// Checks that `folder` is empty, new, or holds what `wanted` describes, and records `wanted`
    /// in it. With `overwrite`, a folder written by another `enhance` run loses that run's audio
    /// files and markers first (a folder not written by `sekit enhance` keeps its files).
    /// - Throws: ``EnhancementError/invalidParameter(name:value:reason:)`` naming `out`.
    static func claim(_ folder: URL, wanted: EnhanceFolderClaim, overwrite: Bool) throws {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        if fm.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw EnhancementError.invalidParameter(name: "out", value: folder.path,
                                                    reason: "is a file, not a folder; give a folder for the outputs")
        }
        let file = folder.appendingPathComponent(fileName)
        let entries = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
        let markers = entries.filter { $0.hasPrefix(".sekit-enhance") && $0.hasSuffix(".json") && $0 != fileName }
        let visible = entries.filter { !$0.hasPrefix(".") }.sorted()
        var conflict: String?
        if let data = fm.contents(atPath: file.path) {
            guard let existing = try? JSONDecoder().decode(EnhanceFolderClaim.self, from: data) else {
                throw EnhancementError.invalidParameter(name: "out", value: folder.path,
                                                        reason: "\(file.path) is not readable; remove it")
            }
            if existing == wanted { return }
            conflict = "holds the outputs of another enhance run (\(differences(existing, wanted)))"
        } else if !markers.isEmpty {
            // Written by an enhance run of an earlier version, which recorded only its method.
            let methods = Set(EnhanceRunMarker.all(in: folder).map(\.method)).sorted()
            let sharded = markers.contains { $0.hasPrefix(".sekit-enhance-shard-") }
            let sameShards = wanted.shards == 1 ? !sharded : markers.allSatisfy { $0.hasSuffix("-of-\(wanted.shards).json") }
            if methods != [wanted.params["method"] ?? ""] || !sameShards {
                conflict = "holds the outputs of an enhance run with --method \(methods.joined(separator: ", "))" +
                    (sameShards ? "" : " in another shard layout")
            }
        } else if !visible.isEmpty {
            conflict = "is not empty and was not written by sekit enhance (\(visible.prefix(3).joined(separator: ", "))" +
                (visible.count > 3 ? ", ..." : "") + ")"
        }
        if let conflict {
            guard overwrite else {
                throw EnhancementError.invalidParameter(name: "out", value: folder.path,
                    reason: "\(conflict); choose another folder, or give --overwrite to replace its outputs")
            }
            if fm.fileExists(atPath: file.path) || !markers.isEmpty { removeOutputs(in: folder, markers: markers) }
        }
        do {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try AtomicFile.write(try encoder.encode(wanted), to: file)
        } catch {
            throw EnhancementError.invalidParameter(name: "out", value: folder.path,
                                                    reason: "cannot write into it: \(OutputLock.systemReason(error))")
        }
    }

    /// What differs between the folder's run and the one asked for, for the refusal.
    static func differences(_ existing: EnhanceFolderClaim, _ wanted: EnhanceFolderClaim) -> String {
        var parts = Set(existing.params.keys).union(wanted.params.keys).sorted().compactMap { key -> String? in
            existing.params[key] == wanted.params[key] ? nil
                : "\(key): \(existing.params[key] ?? "unset") in the folder, \(wanted.params[key] ?? "unset") now"
        }
        if existing.shards != wanted.shards { parts.append("shards: \(existing.shards) in the folder, \(wanted.shards) now") }
        return parts.isEmpty ? "see its \(fileName)" : parts.joined(separator: "; ")
    }

    /// Removes what `sekit enhance` writes: the WAV files below `folder`, its markers and claim.
    /// Symbolic links are not followed (a link is removed, never what it points to).
    private static func removeOutputs(in folder: URL, markers: [String]) {
        let fm = FileManager.default
        for name in markers + [fileName] { try? fm.removeItem(at: folder.appendingPathComponent(name)) }
        let walker = fm.enumerator(atPath: folder.path)
        while let relative = walker?.nextObject() as? String {
            if relative.lowercased().hasSuffix(".wav") { try? fm.removeItem(at: folder.appendingPathComponent(relative)) }
        }
    }
}
