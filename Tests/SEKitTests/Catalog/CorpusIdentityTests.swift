import Foundation
import Testing
@testable import SEKitCatalog

/// A corpus's identity is its `mix.json` and its clips' manifest lines, not the files they are in.
@Suite struct CorpusIdentityTests {
    static func folder(_ url: URL, spec: String, manifests: [String: String]) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(spec.utf8).write(to: url.appendingPathComponent("mix.json"))
        for (name, text) in manifests { try Data(text.utf8).write(to: url.appendingPathComponent(name)) }
    }

    @Test func shardsCopiesAndEditsAreToldApart() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-identity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = #"{"clip_count": 3}"#, lines = [#"{"id": "a", "index": 0}"#, #"{"id": "b", "index": 1}"#, #"{"id": "c", "index": 2}"#]
        let manifest = lines.joined(separator: "\n") + "\n"
        try Self.folder(root.appendingPathComponent("whole"), spec: spec, manifests: ["manifest.jsonl": manifest])
        try Self.folder(root.appendingPathComponent("shards"), spec: spec, manifests: [
            "manifest-shard-1-of-2.jsonl": lines[0] + "\n" + lines[2] + "\n", "manifest-shard-2-of-2.jsonl": lines[1] + "\n",
        ])
        try Self.folder(root.appendingPathComponent("edited-spec"), spec: #"{"clip_count": 3, "note": 1}"#,
                        manifests: ["manifest.jsonl": lines.joined(separator: "\n") + "\n"])
        try Self.folder(root.appendingPathComponent("edited-clip"), spec: spec,
                        manifests: ["manifest.jsonl": (lines.dropLast() + [#"{"id": "c", "index": 3}"#]).joined(separator: "\n")])
        let whole = try #require(try CorpusIdentity.of(folder: root.appendingPathComponent("whole")))
        #expect(whole.identity.count == 64)
        #expect(try CorpusIdentity.of(folder: root.appendingPathComponent("shards"))?.identity == whole.identity)
        #expect(try CorpusIdentity.of(folder: root.appendingPathComponent("edited-spec"))?.identity != whole.identity)
        #expect(try CorpusIdentity.of(folder: root.appendingPathComponent("edited-clip"))?.identity != whole.identity)
        // No mix.json: a folder, not an identified corpus.
        try FileManager.default.removeItem(at: root.appendingPathComponent("whole/mix.json"))
        #expect(try CorpusIdentity.of(folder: root.appendingPathComponent("whole")) == nil)
    }
}
