import Foundation
import GRDB

extension CatalogSchema {
    /// Fills `corpora`, `corpus_mix_runs` and `score_targets` for the runs recorded before schema
    /// `v7-corpora`, in the migration's transaction, from what those runs recorded then:
    ///
    /// - every mix run makes a corpus: identified by its folder's files (``CorpusIdentity/of(folder:)``,
    ///   the folder from its parameter `out`) when the folder's `.sekit/catalog-run*.json` still names
    ///   the run, else by ``CorpusIdentity/legacy(mixRuns:)`` (`spec_sha256` NULL). Mix runs of one
    ///   folder with the same files (the shards of one mix) make one corpus. A superseded run (its
    ///   folder was mixed over) has the legacy identity.
    /// - every score run gets its target: the corpus of the mix run up its parent chain; else of the
    ///   mix runs its parameters `mix_runs` or `corpus_mix_runs` name (identified by the files of its
    ///   parameter `corpus` when they name those runs, else by the legacy identity); else the corpus
    ///   folder of parameter `corpus` (by its files when it has `mix.json`, else as a folder); else the
    ///   reference folder (`reference`). It scored `enhanced` outputs when it has the parameter
    ///   `enhanced`, else the `noisy` input; the enhance run is the one up its parent chain.
    ///
    /// These were the rules by which SEKit told what a score run scored before v7; they live here only.
    package static func backfillCorpora(_ db: Database) throws {
        var corpusOfMixRun: [String: String] = [:]
        let mixes = try Row.fetchAll(db, sql: """
            SELECT r.id, r.name,
                   (SELECT value_text FROM params WHERE run_id = r.id AND key = 'out') AS out,
                   EXISTS (SELECT 1 FROM params WHERE run_id = r.id AND key = 'superseded_by') AS superseded
            FROM runs r WHERE r.kind = 'mix' ORDER BY r.started_at, r.id
            """)
        for row in mixes {
            let id: String = row["id"], name: String = row["name"], out: String? = row["out"], superseded: Bool = row["superseded"]
            let files = superseded ? nil : filesIdentity(folder: out, naming: [id])
            let identity = files?.identity ?? CorpusIdentity.legacy(mixRuns: [id])
            _ = try Catalog.recordCorpus(db, identity: identity, name: out.map { URL(fileURLWithPath: $0).lastPathComponent } ?? name,
                                         path: out ?? name, specSHA256: files?.specSHA256, mixRuns: [id])
            corpusOfMixRun[id] = identity
        }
        let scores = try Row.fetchAll(db, sql: "SELECT id FROM runs WHERE kind = 'score' ORDER BY started_at, id")
        for row in scores {
            let id: String = row["id"]
            let rows = try Row.fetchAll(db, sql: "SELECT key, value_text FROM params WHERE run_id = ?", arguments: [id])
            let params = Dictionary(rows.map { row -> (String, String) in (row["key"], row["value_text"]) }) { first, _ in first }
            let lineage = try lineageKinds(db, of: id)
            var corpus: String?, folder: String?
            if let mix = lineage.first(where: { $0.kind == "mix" })?.id, let known = corpusOfMixRun[mix] {
                corpus = known
            } else if let named = params["mix_runs"] ?? params["corpus_mix_runs"], !named.isEmpty {
                let runs = named.split(separator: ",").map(String.init).sorted()
                if let known = runs.lazy.compactMap({ corpusOfMixRun[$0] }).first {
                    corpus = known
                } else {
                    let files = filesIdentity(folder: params["corpus"], naming: runs)
                    let identity = files?.identity ?? CorpusIdentity.legacy(mixRuns: runs)
                    let path = params["corpus"] ?? runs.joined(separator: ",")
                    _ = try Catalog.recordCorpus(db, identity: identity, name: URL(fileURLWithPath: path).lastPathComponent, path: path,
                                                 specSHA256: files?.specSHA256, mixRuns: runs)
                    for run in runs { corpusOfMixRun[run] = identity }
                    corpus = identity
                }
            } else if let path = params["corpus"] {
                if let files = try? CorpusIdentity.of(folder: URL(fileURLWithPath: path)) {
                    corpus = try Catalog.recordCorpus(db, identity: files.identity, name: URL(fileURLWithPath: path).lastPathComponent,
                                                      path: path, specSHA256: files.specSHA256, mixRuns: []).identity
                } else {
                    folder = path
                }
            } else {
                folder = params["reference"]
            }
            let enhanced = params["enhanced"], enhanceRun = lineage.first(where: { $0.kind == "enhance" }).map { RunID($0.id) }
            try ScoreTargetRecord(runID: RunID(id), corpus: corpus, folder: folder, scored: enhanced == nil ? .noisy : .enhanced,
                                  enhancedFolder: enhanced, enhanceRunID: enhanceRun)
                .insert(db)
        }
    }

    /// The runs from `run` up its parent chain (itself first), at most 16 deep: id and kind.
    private static func lineageKinds(_ db: Database, of run: String) throws -> [(id: String, kind: String)] {
        var chain: [(id: String, kind: String)] = []
        var next: String? = run
        while let id = next, chain.count < 16, !chain.contains(where: { $0.id == id }),
              let row = try Row.fetchOne(db, sql: "SELECT kind, parent_id FROM runs WHERE id = ?", arguments: [id]) {
            chain.append((id, row["kind"]))
            next = row["parent_id"]
        }
        return chain
    }

    /// The identity of the corpus in `folder` when its own records (`.sekit/catalog-run*.json`) still
    /// name one of `runs`: the folder then holds what those runs mixed.
    private static func filesIdentity(folder: String?, naming runs: [String]) -> CorpusIdentity? {
        guard let folder else { return nil }
        let root = URL(fileURLWithPath: folder)
        let state = root.appendingPathComponent(".sekit")
        struct Recorded: Decodable { var runID: String; enum CodingKeys: String, CodingKey { case runID = "run_id" } }
        let named = ((try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? [])
            .filter { $0.hasPrefix("catalog-run") && $0.hasSuffix(".json") }
            .compactMap { name in
                (try? Data(contentsOf: state.appendingPathComponent(name)))
                    .flatMap { try? JSONDecoder().decode(Recorded.self, from: $0) }?.runID
            }
        guard !Set(named).isDisjoint(with: runs) else { return nil }
        return try? CorpusIdentity.of(folder: root)
    }
}
