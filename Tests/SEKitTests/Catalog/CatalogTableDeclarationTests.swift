import Foundation
import GRDB
import Testing

@testable import SEKit

/// Issue 41: every table declares how `catalog merge` copies it, what `catalog check` verifies and
/// how `runs export --table` writes it, so no table can be dropped by a merge again (the listening
/// tables and source analyses once were).
@Suite struct CatalogTableDeclarationTests {
    /// A catalogue with at least one row in every table; returns the score run's id.
    @discardableResult
    static func everyTable(_ catalog: Catalog, folder: TemporaryFolder, stimuliHash: String = "ab", stimulus: String = "s1") throws
        -> RunID {
        let test = "t"
        let wav = folder.file("a.wav")
        try CatalogTestSupport.writeWAV(wav)
        let sha = try SHA256.hex(ofFileAt: wav)
        let bytes = try FileManager.default.attributesOfItem(atPath: wav.path)[.size] as! Int
        let importRun = try catalog.beginRun(kind: .import, commandLine: ["import"])
        try catalog.write { db in
            try db.execute(sql: """
                INSERT INTO sources VALUES ('toy:a.wav', 'speech', 'toy', ?, 'a.wav', ?, ?, '2026-01-01T00:00:00Z', 'WAV', 'PCM_16',
                                            16000, 1, 1600, 0.1, NULL, ?)
                """, arguments: [wav.path, sha, bytes, importRun.rawValue])
        }
        try catalog.finishRun(importRun)
        let mix = try catalog.beginRun(kind: .mix, name: "corpus", commandLine: ["mix"], params: ["seed": "1"], tags: ["stage": "a"])
        let clip = CatalogTestSupport.clip(mix, index: 0, speech: "toy:a.wav")
        try catalog.insertClips([clip])
        try catalog.finishRun(mix)
        let train = try catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py"], parent: mix)
        _ = try catalog.log([RunLogEntry(step: 0, metrics: ["loss": 0.5])], to: train)
        let score = try catalog.beginRun(kind: .score, name: "crnn", commandLine: ["score"], params: ["metrics": "stoi"], parent: train)
        try catalog.write { db in
            try db.execute(sql: """
                INSERT INTO clip_noises VALUES (?, 0, 'toy:a.wav', 0.25, 0.5);
                INSERT INTO clip_degradations VALUES (?, 0, 'codec', 'mp3');
                INSERT INTO clip_degradation_params VALUES (?, 0, 'bitrate_kbps', '32', 32);
                INSERT INTO artifacts VALUES (?, '/nowhere/model.onnx', 'model', NULL, NULL, '2026-01-01T00:00:00Z');
                INSERT INTO clip_scores VALUES (?, ?, 'stoi', 0.9, 0.7, NULL);
                INSERT INTO run_metrics VALUES (?, 'stoi', '', 0.9, 0, NULL, NULL, 1);
                INSERT INTO listening_tests VALUES (?, 'acr', '/tmp/t', ?, 5, '2026-01-01T00:00:00Z');
                INSERT INTO listening_stimuli VALUES (?, ?, 'c1', ?, 'crnn', 'test', ?, 5, 'audio/s1.wav', ?);
                INSERT INTO listening_raters VALUES (?, 'r1', 'r1.json', 0, NULL);
                INSERT INTO listening_ratings VALUES (?, 'r1', ?, 'acr', 4, 2.5);
                INSERT INTO analysed_corpora VALUES ('toy', ?, '2026-01-01T00:00:00Z', 'v', NULL);
                INSERT INTO source_analysis (corpus, relative_path, path, sha256, analysed_at) VALUES ('toy', 'a.wav', ?, ?, 'x');
                """, arguments: [clip.id, clip.id, clip.id, train.rawValue, score.rawValue, clip.id, score.rawValue,
                                 test, String(repeating: stimuliHash, count: 32),
                                 test, stimulus, clip.id, score.rawValue, String(repeating: "c", count: 64), test, test, stimulus,
                                 folder.url.path, wav.path, sha])
        }
        let identity = String(repeating: stimuliHash, count: 32)
        try catalog.write { db in
            try db.execute(sql: """
                INSERT INTO corpora VALUES (?, 'corpus', '/corpora/corpus', NULL, '2026-01-01T00:00:00Z');
                INSERT INTO corpus_mix_runs VALUES (?, ?);
                INSERT INTO score_targets VALUES (?, ?, NULL, 'noisy', NULL, NULL);
                """, arguments: [identity, identity, mix.rawValue, score.rawValue, identity])
        }
        try catalog.finishRun(train)
        try catalog.finishRun(score)
        return score
    }

    /// Row counts of every table.
    static func counts(_ catalog: Catalog) throws -> [String: Int] {
        try catalog.read { db in
            var counts: [String: Int] = [:]
            for table in CatalogTable.all { counts[table.name] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.name)") }
            return counts
        }
    }

    /// The tables the migrations create, as `sqlite_master` lists them (GRDB's own left out).
    static func schemaTables(_ catalog: Catalog) throws -> Set<String> {
        Set(try catalog.read { db in
            try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                """)
        })
    }

    @Test func everyTableOfTheSchemaIsDeclaredWithColumnsItHas() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let tables = try Self.schemaTables(catalog)
        let declared = Set(CatalogTable.all.map(\.name))
        #expect(tables == declared,
                "undeclared: \(tables.subtracting(declared).sorted()); declared but absent: \(declared.subtracting(tables).sorted())")
        try catalog.read { db in
            for table in CatalogTable.all where tables.contains(table.name) {
                let columns = Set(try db.columns(in: table.name).map(\.name))
                var named = table.merge.runIDColumns + table.merge.clipIDColumns + table.merge.sourceIDColumns
                named += [table.merge.foldedRunsOwnRows, table.merge.parent?.column].compactMap { $0 }
                if case let .differing(key, compared) = table.merge.conflict { named += key + compared }
                for check in table.checks {
                    if case let .runReference(column) = check { named.append(column) }
                    if case let .missingFiles(column) = check { named.append(column) }
                }
                switch table.export {
                case .ofRuns(let column), .ofClipsOfRuns(let column): named.append(column)
                case .whole: break
                }
                #expect(Set(named).isSubset(of: columns), "\(table.name): \(Set(named).subtracting(columns).sorted())")
                if let parent = table.merge.parent {
                    let order = CatalogTable.all.map(\.name)
                    #expect(order.firstIndex(of: parent.table)! < order.firstIndex(of: table.name)!,
                            "\(table.name) is merged before its parent \(parent.table)")
                }
            }
        }
    }

    /// The data loss the issue measured: a merge of a catalogue holding a listening test and a source
    /// analysis kept neither. Every table now arrives whole.
    @Test func aMergeCopiesEveryTable() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let input = try Catalog.open(at: folder.file("in.sqlite"))
        try Self.everyTable(input, folder: folder)
        let before = try Self.counts(input)
        #expect(before.values.allSatisfy { $0 > 0 }, "\(before)")
        let output = try Catalog.open(at: folder.file("out.sqlite"))
        let report = try output.merge([folder.file("in.sqlite")])
        #expect(try Self.counts(output) == before)
        #expect(report.inserted.values.first?.count == CatalogTable.all.count)
        #expect(try output.listeningTest("t").ratings.count == 1)
        // The same input again adds nothing.
        #expect(try output.merge([folder.file("in.sqlite")]).totalInserted == 0)
    }

    /// A listening test of the same name with other stimuli conflicts: refused, or kept as OUT has it
    /// with none of the input's stimuli, raters or ratings.
    @Test func aListeningTestOfTheSameNameWithOtherStimuliConflicts() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let first = try Catalog.open(at: folder.file("a.sqlite"))
        try Self.everyTable(first, folder: folder)
        let second = try Catalog.open(at: folder.file("b.sqlite"))
        try Self.everyTable(second, folder: folder, stimuliHash: "cd", stimulus: "s2")
        let output = try Catalog.open(at: folder.file("out.sqlite"))
        _ = try output.merge([folder.file("a.sqlite")])
        do {
            _ = try output.merge([folder.file("b.sqlite")])
            Issue.record("a conflicting listening test was merged")
        } catch {
            #expect("\(error)".contains("listening_tests t: same key, different stimuli_hash"), "\(error)")
        }
        let kept = try output.merge([folder.file("b.sqlite")], onConflict: .keepFirst)
        #expect(kept.conflicts.contains { $0.table == "listening_tests" && $0.resolution == "kept-first" })
        #expect(kept.inserted.values.first?["listening_stimuli"] == 0 && kept.inserted.values.first?["listening_ratings"] == 0)
        #expect(try output.listeningTest("t").stimuli.map(\.id) == ["s1"], "none of the input's test is mixed in")
        #expect(throws: CatalogError.self) { try output.merge([folder.file("b.sqlite")], onConflict: .rename) }
    }

    /// `catalog check` verifies what the tables declare: a stimulus naming a score run that is gone,
    /// an analysed file that is gone.
    @Test func checkVerifiesTheDeclaredReferencesAndFiles() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        try Self.everyTable(catalog, folder: folder)
        #expect(try catalog.check().integrityProblems.isEmpty)
        try catalog.write { db in try db.execute(sql: "UPDATE listening_stimuli SET score_run_id = 'gone'") }
        try FileManager.default.removeItem(at: folder.file("a.wav"))
        let report = try catalog.check(dryRun: true)
        #expect(report.integrityProblems.contains { $0.contains("listening_stimuli.score_run_id names 1 run(s)") && $0.contains("gone") },
                "\(report.integrityProblems)")
        #expect(report.missingFiles.contains { $0.table == "source_analysis" && $0.path == folder.file("a.wav").path })
    }

    /// `runs export --table` writes every table: the filtered runs' rows, or the whole table.
    @Test func everyTableExports() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let score = try Self.everyTable(catalog, folder: folder)
        let counts = try Self.counts(catalog)
        for table in CatalogTable.all {
            var csv = ""
            let written = try catalog.exportTable(table.name, filter: nil, format: .csv) { csv += $0 }
            #expect(written == counts[table.name], "\(table.name)")
            #expect(csv.split(separator: "\n").count == written + 1, "\(table.name): \(csv)")
        }
        var json = ""
        #expect(try catalog.exportTable("clip_scores", filter: "id = '\(score.rawValue)'", format: .json) { json += $0 } == 1)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(rows.first?["value"] as? Double == 0.9 && rows.first?["error"] is NSNull, "\(json)")
        #expect(try catalog.exportTable("clip_noises", filter: "kind = 'score'", format: .csv) { _ in } == 0)
        #expect(try catalog.exportTable("clip_noises", filter: "kind = 'mix'", format: .csv) { _ in } == 1)
        #expect(throws: CatalogError.self) { try catalog.exportTable("listening_ratings", filter: "kind = 'mix'", format: .csv) { _ in } }
        #expect(throws: CatalogError.self) { try catalog.exportTable("sqlite_master", filter: nil, format: .csv) { _ in } }
    }
}
