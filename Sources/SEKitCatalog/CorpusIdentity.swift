import Foundation
import SEKitSignal

/// What makes a mixed corpus the same corpus wherever its folder lies: the SHA-256 of its `mix.json`
/// (the options and sources it was mixed from) and of its manifest lines (`manifest.jsonl`, or
/// `manifest-shard-I-of-N.jsonl` for a sharded mix: the clips it holds).
///
/// The identity is the SHA-256 of the text `sekit-corpus 1\nmix.json SHA256\nclips N\n` followed by
/// the SHA-256 of every non-empty manifest line, sorted, one per line: the same for a corpus mixed in
/// one process or in shards (the same clips in other files), for a copied or moved folder; another
/// for an edited `mix.json` or manifest line. A folder without `mix.json` has none (it is scored as
/// a folder, by its path).
public struct CorpusIdentity: Hashable, Sendable {
    /// The identity: lower-case hex SHA-256 (64 characters), the key of the `corpora` table.
    public var identity: String
    /// SHA-256 of `mix.json`.
    public var specSHA256: String
    /// The manifests hashed (file names, in order).
    public var manifests: [String]

    /// The name of a corpus's options file.
    public static let specFileName = "mix.json"

    /// Whether `name` is one of a corpus's manifests (`manifest.jsonl`, `manifest-shard-I-of-N.jsonl`).
    public static func isManifest(_ name: String) -> Bool {
        name == "manifest.jsonl" || (name.hasPrefix("manifest-shard-") && name.hasSuffix(".jsonl"))
    }

    /// The identity of the corpus folder `folder`, or nil when it holds no `mix.json` or no manifest.
    /// - Throws: ``CatalogError/file(path:reason:)`` for a file that cannot be read.
    public static func of(folder: URL) throws(CatalogError) -> CorpusIdentity? {
        let spec = folder.appendingPathComponent(specFileName)
        guard FileManager.default.fileExists(atPath: spec.path) else { return nil }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(isManifest).sorted()
        guard !names.isEmpty else { return nil }
        let specSHA = try hash(spec)
        var lines: [String] = []
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw .file(path: url.path, reason: "cannot be read to identify the corpus")
            }
            for line in data.split(separator: UInt8(ascii: "\n")) where !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == 13 }) {
                lines.append(SHA256.hex(of: Data(line)))
            }
        }
        let text = "sekit-corpus 1\n\(specFileName) \(specSHA)\nclips \(lines.count)\n" + lines.sorted().joined(separator: "\n")
        return CorpusIdentity(identity: SHA256.hex(of: Data(text.utf8)), specSHA256: specSHA, manifests: names)
    }

    /// The stand-in identity of a corpus recorded before identities existed (migration `v7-corpora`)
    /// whose files were gone or had changed: derived from its mix runs' ids, so it is stable and
    /// never equals a hash of files.
    package static func legacy(mixRuns: [String]) -> String {
        SHA256.hex(of: Data(("sekit-corpus legacy\n" + mixRuns.sorted().joined(separator: "\n")).utf8))
    }

    private static func hash(_ url: URL) throws(CatalogError) -> String {
        do { return try SHA256.hex(ofFileAt: url) } catch {
            throw .file(path: url.path, reason: "cannot be read to identify the corpus: \(error.localizedDescription)")
        }
    }
}
