import Foundation
import Testing

/// The CLI tests' name for a test's temporary folder.
typealias CatalogCLIFolder = TemporaryFolder

@Suite struct CatalogCommandTests {
    static var sqliteAvailable: Bool { TestEnvironment.sqliteAvailable }

    @Test func helpListsCommandsAndFlags() throws {
        let catalog = try SEKitBinary.run(["catalog", "--help"])
        for command in ["import", "stats", "clips", "merge", "check"] { #expect(catalog.stdout.contains(command)) }
        let importHelp = try SEKitBinary.run(["catalog", "import", "--help"])
        for flag in ["--kind", "--corpus", "--speaker-pattern", "--catalog"] { #expect(importHelp.stdout.contains(flag)) }
        let runs = try SEKitBinary.run(["runs", "--help"])
        #expect(runs.stdout.contains("list") && runs.stdout.contains("show"))
    }

    /// Eight `sekit catalog import` processes into one new catalogue at once: all succeed, nothing lost.
    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func eightParallelImportProcesses() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for shard in 0..<8 { for file in 0..<6 { try folder.writeWAV("c\(shard)/f\(file).wav", seed: shard * 10 + file) } }
        let catalog = folder.path("experiments/catalog.sqlite")
        let results = NSLock()
        nonisolated(unsafe) var statuses: [Int32] = []
        nonisolated(unsafe) var messages: [String] = []
        DispatchQueue.concurrentPerform(iterations: 8) { shard in
            let result = try? SEKitBinary.run(["catalog", "import", "--kind", "noise", "--corpus", "c\(shard)", folder.path("c\(shard)")],
                                              environment: ["SEKIT_CATALOG": catalog])
            results.lock()
            statuses.append(result?.status ?? -1)
            if let result, result.status != 0 { messages.append(result.stderr) }
            results.unlock()
        }
        #expect(statuses == Array(repeating: 0, count: 8), "\(messages)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM sources") == "48")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'import' AND status = 'finished'") == "8")
        #expect(try folder.sqlite(catalog, "SELECT count(DISTINCT corpus) FROM sources") == "8")
        #expect(try folder.sqlite(catalog, "PRAGMA journal_mode") == "wal")
    }

    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func importFailuresStatsClipsMergeAndRuns() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.writeWAV("speech/spk1/a.wav")
        try folder.writeWAV("speech/spk2/b.wav", frames: 3200)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: folder.path("speech/spk2/bad.wav")))
        let shard = folder.path("shard.sqlite")
        let imported = try SEKitBinary.run(["catalog", "import", "--catalog", shard, "--kind", "speech", "--corpus", "toy",
                                            "--speaker-pattern", "(spk[0-9])", folder.path("speech")])
        #expect(imported.status != 0)
        #expect(imported.stdout.contains("2 added") && imported.stderr.contains("bad.wav"))
        #expect(try folder.sqlite(shard, "SELECT group_concat(speaker) FROM (SELECT speaker FROM sources ORDER BY id)") == "spk1,spk2")
        let again = try SEKitBinary.run(["catalog", "import", "--catalog", shard, "--kind", "speech", "--corpus", "toy",
                                         folder.path("speech/spk1")])
        #expect(again.status == 0 && again.stdout.contains("0 added"))

        // A mix run with clips, written the way sekit mix records them (by SQL here, as sekit mix is not part of this issue).
        _ = try folder.sqlite(shard, """
            INSERT INTO runs (id, kind, status, started_at, finished_at, tool_version, command_line, working_directory, host, pid)
            VALUES ('mixrun', 'mix', 'finished', '2026-01-01 00:00:00.000', '2026-01-01 00:00:01.000', 'x', 'sekit mix', '/', 'h', 1);
            INSERT INTO params VALUES ('mixrun', 'snr_db', '5', 5);
            INSERT INTO clips (id, run_id, clip_index, split, speech_source_id, snr_realised_db, seed, sample_rate, duration_seconds)
            VALUES ('k0', 'mixrun', 0, 'train', 'toy:spk1/a.wav', 2.5, 1, 16000, 1),
                   ('k1', 'mixrun', 1, 'test', 'toy:spk2/b.wav', 7.5, 2, 16000, 1),
                   ('k2', 'mixrun', 2, 'test', 'toy:spk1/a.wav', 12.5, 3, 16000, 1);
            """)
        let csv = try SEKitBinary.run(["catalog", "clips", "--catalog", shard, "--filter", "split = 'test' and snr_realised_db > 5",
                                       "--format", "csv"])
        #expect(csv.status == 0)
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("id,run_id,clip_index,split") == true && lines.count == 3)
        #expect(lines.dropFirst().map { $0.split(separator: ",").first ?? "" } == ["k1", "k2"])
        let json = try SEKitBinary.run(["catalog", "clips", "--catalog", shard, "--filter", "speaker = 'spk1'", "--format", "json"])
        let objects = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.compactMap { $0["id"] as? String } == ["k0", "k2"])
        #expect(objects?.first?["snr_realised_db"] as? Double == 2.5)
        let hostile = try SEKitBinary.run(["catalog", "clips", "--catalog", shard, "--filter", "x'; drop table runs; --"])
        #expect(hostile.status != 0 && hostile.stderr.contains("column 2") && hostile.stderr.contains("^"))
        #expect(try folder.sqlite(shard, "SELECT count(*) FROM runs") == "3")

        let stats = try SEKitBinary.run(["catalog", "stats", "--catalog", shard, "--json"])
        let statsObject = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        let histogram = statsObject?["snrHistogram"] as? [[String: Any]]
        #expect(histogram?.compactMap { $0["lowerDB"] as? Double } == [0, 5, 10])

        let check = try SEKitBinary.run(["catalog", "check", "--catalog", shard])
        #expect(check.status != 0 && check.stdout.contains("split leak: source toy:spk1/a.wav is used in test, train"))

        let merged = folder.path("merged/all.sqlite")
        let first = try SEKitBinary.run(["catalog", "merge", merged, shard])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try SEKitBinary.run(["catalog", "merge", merged, shard])
        #expect(second.stdout.contains("0 rows added"))
        for table in ["runs", "params", "sources", "clips"] {
            #expect(try folder.sqlite(merged, "SELECT count(*) FROM \(table)") == (try folder.sqlite(shard,
                    "SELECT count(*) FROM \(table)")), "\(table)")
        }

        let list = try SEKitBinary.run(["runs", "list", "--catalog", merged, "--filter", "params.snr_db >= 5", "--format", "csv"])
        #expect(list.stdout.split(separator: "\n").count == 2 && list.stdout.contains("mixrun"))
        let show = try SEKitBinary.run(["runs", "show", "--catalog", merged, "mixrun"])
        #expect(show.status == 0 && show.stdout.contains("snr_db = 5") && show.stdout.contains("clips: 3"))
    }

    @Test func refusesNonCatalogueAndMissingCatalogue() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let notes = folder.path("notes.txt")
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
        let result = try SEKitBinary.run(["catalog", "stats", "--catalog", notes])
        #expect(result.status != 0 && result.stderr.contains(notes) && result.stderr.contains("not an SQLite database"))
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes")
        let missing = try SEKitBinary.run(["catalog", "clips"], currentDirectory: folder.url)
        #expect(missing.status != 0 && missing.stderr.contains("experiments/catalog.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("experiments/catalog.sqlite")))
    }

    /// A seed above 2^63 (stored as its bit pattern, −7116203787178743192) is printed and filtered as
    /// the unsigned value it is, in every format (hardening item 15).
    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func seedsAboveTwoToThe63AreListedUnsigned() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("c.sqlite")
        try folder.writeWAV("n/a.wav")
        #expect(try SEKitBinary.run(["catalog", "import", "--catalog", catalog, "--kind", "noise", "--corpus", "n",
                                     folder.path("n")]).status == 0)
        _ = try folder.sqlite(catalog, """
            INSERT INTO runs (id, kind, status, started_at, finished_at, tool_version, command_line, working_directory, host, pid)
            VALUES ('mixrun', 'mix', 'finished', '2026-01-01 00:00:00.000', '2026-01-01 00:00:01.000', 'x', 'sekit mix', '/', 'h', 1);
            INSERT INTO clips (id, run_id, clip_index, split, seed, sample_rate, duration_seconds)
            VALUES ('big', 'mixrun', 0, 'train', -7116203787178743192, 16000, 1), ('small', 'mixrun', 1, 'train', 7, 16000, 1);
            """)
        for format in ["table", "csv", "json"] {
            let listed = try SEKitBinary.run(["catalog", "clips", "--catalog", catalog, "--format", format, "--filter",
                                              "seed = 11330540286530808424"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("11330540286530808424") && listed.stdout.contains("big"), "\(format): \(listed.stdout)")
            #expect(!listed.stdout.contains("-7116203787178743192") && !listed.stdout.contains("small"), "\(format): \(listed.stdout)")
        }
        let json = try SEKitBinary.run(["catalog", "clips", "--catalog", catalog, "--json", "--filter", "seed > 9223372036854775807"])
        #expect(json.stdout.contains("\"seed\": 11330540286530808424") && !json.stdout.contains("small"), "\(json.stdout)")
        let signed = try SEKitBinary.run(["catalog", "clips", "--catalog", catalog, "--filter", "seed = -7116203787178743192"])
        #expect(signed.status != 0 && signed.stderr.contains("unsigned 64-bit integer"), "\(signed.stderr)")
    }

    /// Two catalogues with the same source id (corpus toy, relative path a.wav) for different audio
    /// (hardening item 4): merge refuses the second with the conflict listed and merges nothing of it;
    /// keep-first keeps OUT's and reports it; rename gives it `toy:a.wav~<8 hex>` and re-points its clips.
    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func mergeOfSameSourceIDWithDifferentFiles() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for (shard, seed) in [("a", 1), ("b", 2)] {
            try folder.writeWAV("\(shard)/toy/a.wav", seed: seed)
            let catalog = folder.path("\(shard).sqlite")
            let imported = try SEKitBinary.run(["catalog", "import", "--catalog", catalog, "--kind", "speech", "--corpus", "toy",
                                                folder.path("\(shard)/toy")])
            #expect(imported.status == 0, "\(imported.stderr)")
            _ = try folder.sqlite(catalog, """
                INSERT INTO runs (id, kind, status, started_at, finished_at, tool_version, command_line, working_directory, host, pid)
                VALUES ('mix-\(shard)', 'mix', 'finished', '2026-01-01 00:00:00.000', '2026-01-01 00:00:01.000', \
                'x', 'sekit mix', '/', 'h', 1);
                INSERT INTO clips (id, run_id, clip_index, split, speech_source_id, rir_source_id, seed, sample_rate, duration_seconds)
                VALUES ('clip-\(shard)', 'mix-\(shard)', 0, 'train', 'toy:a.wav', 'toy:a.wav', \(seed), 16000, 1);
                INSERT INTO clip_noises VALUES ('clip-\(shard)', 0, 'toy:a.wav', 0, 1);
                """)
        }
        let a = folder.path("a.sqlite"), b = folder.path("b.sqlite")
        let shaB = try folder.sqlite(b, "SELECT sha256 FROM sources")
        #expect(try folder.sqlite(a, "SELECT sha256 FROM sources") != shaB)

        let out = folder.path("out.sqlite")
        let refused = try SEKitBinary.run(["catalog", "merge", out, a, b])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(b) && refused.stderr.contains("sources toy:a.wav") && refused.stderr.contains("--on-conflict"),
                "\(refused.stderr)")
        #expect(try folder.sqlite(out, "SELECT count(*) FROM runs WHERE id = 'mix-b' OR kind = 'import'") == "1")  // a's import only
        #expect(try folder.sqlite(out, "SELECT count(*) FROM clips WHERE id = 'clip-b'") == "0")

        let keepFirst = folder.path("keep.sqlite")
        let kept = try SEKitBinary.run(["catalog", "merge", "--on-conflict", "keep-first", keepFirst, a, b])
        #expect(kept.status == 0 && kept.stderr.contains("kept-first") && kept.stderr.contains("toy:a.wav"), "\(kept.stderr)")
        #expect(try folder.sqlite(keepFirst, "SELECT count(*) || ' ' || min(sha256) FROM sources") == "1 " + (try folder.sqlite(a,
                "SELECT sha256 FROM sources")))

        let renamed = folder.path("renamed.sqlite")
        for _ in 0..<2 {   // the second merge adds nothing
            let result = try SEKitBinary.run(["catalog", "merge", "--on-conflict", "rename", "--json", renamed, a, b])
            #expect(result.status == 0 && result.stdout.contains("renamed to toy:a.wav~\(shaB.prefix(8))"), "\(result.stderr)")
        }
        let newID = "toy:a.wav~\(shaB.prefix(8))"
        #expect(try folder.sqlite(renamed, "SELECT group_concat(id || '=' || sha256, ' ') FROM (SELECT * FROM sources ORDER BY id)")
                == "toy:a.wav=\(try folder.sqlite(a, "SELECT sha256 FROM sources")) \(newID)=\(shaB)")
        #expect(try folder.sqlite(renamed, "SELECT speech_source_id || ' ' || rir_source_id || ' ' || "
                                  + "(SELECT source_id FROM clip_noises WHERE clip_id = 'clip-b') FROM clips WHERE id = 'clip-b'")
                == "\(newID) \(newID) \(newID)")
        #expect(try folder.sqlite(renamed, "SELECT speech_source_id FROM clips WHERE id = 'clip-a'") == "toy:a.wav")
        #expect(try folder.sqlite(renamed, "SELECT count(*) FROM clips") == "2")

        // A clip with the same id but other values cannot be renamed: refused under every policy but keep-first.
        _ = try folder.sqlite(b, "UPDATE clips SET seed = 99 WHERE id = 'clip-b'")
        let clipConflict = try SEKitBinary.run(["catalog", "merge", "--on-conflict", "rename", renamed, b])
        #expect(clipConflict.status != 0 && clipConflict.stderr.contains("clips clip-b: same clip id, different seed"),
                "\(clipConflict.stderr)")
        #expect(try folder.sqlite(renamed, "SELECT seed FROM clips WHERE id = 'clip-b'") == "2")
    }

    /// Dangling and looping links named like audio are listed as failures (exit 1), not skipped
    /// without a word.
    @Test func brokenLinksAreReportedByImport() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.writeWAV("corpus/a.wav")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: folder.path("corpus/dangling.wav"), withDestinationPath: folder.path("nowhere.wav"))
        try fm.createSymbolicLink(atPath: folder.path("corpus/loop1.wav"), withDestinationPath: folder.path("corpus/loop2.wav"))
        try fm.createSymbolicLink(atPath: folder.path("corpus/loop2.wav"), withDestinationPath: folder.path("corpus/loop1.wav"))
        let result = try SEKitBinary.run(["catalog", "import", "--catalog", folder.path("c.sqlite"), "--kind", "speech",
                                          "--corpus", "t", folder.path("corpus")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("1 added") && result.stdout.contains("3 failed"), "\(result.stdout)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("failed:") }.map(String.init)
        #expect(lines == ["dangling", "loop1",
                          "loop2"].map { "failed: \(folder.path("corpus/\($0).wav")): dangling or looping symbolic link" },
                "\(result.stderr)")
    }
}
