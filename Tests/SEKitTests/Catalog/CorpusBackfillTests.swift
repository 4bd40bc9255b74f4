import Foundation
import GRDB
import Testing
@testable import SEKit
@testable import SEKitCatalog

/// Migration `v7-corpora` (issue 41) fills `corpora` and `score_targets` for the runs a catalogue of
/// schema v6 holds, by the rules SEKit used before to tell what a score run scored.
@Suite struct CorpusBackfillTests {
    /// A corpus folder: `mix.json`, `manifest.jsonl` and, naming `run`, `.sekit/catalog-run.json`.
    static func corpusFolder(_ url: URL, namedRun run: String, spec: String = #"{"clip_count": 1}"#) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(".sekit"), withIntermediateDirectories: true)
        try Data(spec.utf8).write(to: url.appendingPathComponent("mix.json"))
        try Data(#"{"id": "c0"}"#.utf8 + [10]).write(to: url.appendingPathComponent("manifest.jsonl"))
        try Data(#"{"run_id": "\#(run)"}"#.utf8).write(to: url.appendingPathComponent(".sekit/catalog-run.json"))
    }

    @Test func everyScoreRunGetsItsTargetAndEveryMixRunItsCorpus() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let a = folder.url.appendingPathComponent("a"), b = folder.url.appendingPathComponent("b")
        try Self.corpusFolder(a, namedRun: "mix-a")
        try Self.corpusFolder(b, namedRun: "foreign-1", spec: #"{"clip_count": 2}"#)
        let url = folder.file("catalog.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try CatalogSchema.migrator.migrate(queue, upTo: "v6-python-views")
        try queue.write { db in
            func run(_ id: String, _ kind: String, parent: String? = nil, params: [String: String]) throws {
                try db.execute(sql: """
                    INSERT INTO runs (id, kind, name, status, started_at, finished_at, tool_version, command_line, working_directory,
                                      host, pid, parent_id)
                    VALUES (?, ?, ?, 'finished', '2025-01-01 00:00:00.000', '2025-01-01 00:01:00.000', '0', 'sekit', '/', 'h', 1, ?)
                    """, arguments: [id, kind, id, parent])
                for (key, value) in params {
                    try db.execute(sql: "INSERT INTO params (run_id, key, value_text) VALUES (?, ?, ?)", arguments: [id, key, value])
                }
            }
            try run("mix-a", "mix", params: ["out": a.path])
            try run("mix-gone", "mix", params: ["out": "/nonexistent/gone"])
            try run("enh", "enhance", parent: "mix-a", params: ["corpus": a.path])
            try run("s1", "score", parent: "mix-a", params: ["corpus": a.path])
            try run("s2", "score", parent: "mix-gone", params: ["corpus": "/nonexistent/gone", "enhanced": "/x"])
            try run("s3", "score", params: ["reference": "/ref", "enhanced": "/out"])
            try run("s4", "score", params: ["corpus": b.path, ScoredCorpus.corpusMixRunsKey: "foreign-1"])
            try run("s5", "score", parent: "enh", params: ["corpus": a.path, "enhanced": "/wiener"])
            try db.execute(sql: "PRAGMA application_id = \(CatalogSchema.applicationID)")
        }
        try queue.close()

        let catalog = try Catalog.open(at: url)
        let identityA = try #require(try CorpusIdentity.of(folder: a)), identityB = try #require(try CorpusIdentity.of(folder: b))
        let legacy = CorpusIdentity.legacy(mixRuns: ["mix-gone"])
        #expect(try catalog.corpus(identity: identityA.identity)?.specSHA256 == identityA.specSHA256)
        #expect(try catalog.corpus(identity: legacy)?.specSHA256 == nil)
        #expect(try catalog.mixRuns(ofCorpus: identityB.identity) == [RunID("foreign-1")])
        func target(_ run: String) throws -> String {
            guard let t = try catalog.scoreTarget(of: RunID(run)) else { return "none" }
            let corpus = t.corpus == identityA.identity ? "A" : t.corpus == identityB.identity ? "B" : t.corpus == legacy ? "legacy" : "-"
            return [corpus, t.folder ?? "-", t.scored.rawValue, t.enhancedFolder ?? "-", t.enhanceRunID?.rawValue ?? "-"]
                .joined(separator: " ")
        }
        #expect(try target("s1") == "A - noisy - -")
        #expect(try target("s2") == "legacy - enhanced /x -")
        #expect(try target("s3") == "- /ref enhanced /out -")
        #expect(try target("s4") == "B - noisy - -")
        #expect(try target("s5") == "A - enhanced /wiener enh")
        // The mix run's name stands for its corpus: the runs that scored it, by record.
        let corpus = try catalog.scoredCorpus(named: "mix-a")
        #expect(try catalog.scoreRuns(on: corpus).map(\.id.rawValue).sorted() == ["s1", "s5"])
        #expect(try catalog.scoredCorpus(of: catalog.run("s1")) == corpus)
    }
}
