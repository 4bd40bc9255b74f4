import Foundation
import Testing

/// `sekit catalog merge` folding shard runs: a corpus mixed, enhanced and scored in 3 shards, each
/// shard into its own catalogue, merges into a catalogue whose rows equal a single process's
/// (ignoring run ids, times, hosts, pids, command lines, artifacts and the fold's own parameters).
@Suite(.serialized, .needsFixtures, .enabled(if: TestEnvironment.sqliteAvailable, "needs sqlite3"))
struct ShardFoldCommandTests {
    static let shards = 3

    /// Mix (with codec degradations, so clips have degradation rows), enhance and score under `root`,
    /// in `shards` shards (catalogues `root/shard-I.sqlite`) or in one process (`root/single.sqlite`).
    static func pipeline(root: String, shards: Int) throws {
        let fixtures = GoldenCorpus.fixtures.path
        let mix = ["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/running_tap.wav",
                   "--noise", fixtures + "/noise/exercise_bike.wav", "--count", "12", "--seconds", "2", "--snr-db", "0,5,10",
                   "--split", "train=0.5,test=0.5", "--codec", "ulaw,mp3", "--codec-probability", "0.5", "--seed", "11",
                   "--out", root + "/corpus"]
        let enhance = ["enhance", "--method", "specsub", "--corpus", root + "/corpus", "--out", root + "/enhanced"]
        let score = ["score", "--corpus", root + "/corpus", "--enhanced", root + "/enhanced", "--metrics", "snr,sisdr,stoi,segsnr"]
        for step in [mix, enhance, score] {
            for shard in 1...shards {
                var extra = shards == 1 ? ["--catalog", root + "/single.sqlite"]
                    : ["--shard", "\(shard)/\(shards)", "--catalog", root + "/shard-\(shard).sqlite"]
                if step[0] == "score" { extra += ["--per-clip", root + "/per-clip-\(shard).csv"] }
                let result = try SEKitBinary.run(step + extra)
                #expect(result.status == 0, "\(step[0]) \(extra): \(result.stderr)")
            }
        }
    }

    /// Every row of every table as text, run ids replaced by their kind, `root` by `ROOT`, without
    /// the columns and parameters a fold cannot make equal.
    static func canonicalRows(_ database: String, root: String) throws -> [String: [String]] {
        let runs = try sqlite(database,
                              "SELECT id, kind FROM runs").split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        let ignored = ["runs": ["started_at", "finished_at", "pid", "host", "command_line", "working_directory"]]
        var dump: [String: [String]] = [:]
        for table in ["runs", "params", "sources", "clips", "clip_noises", "clip_degradations", "clip_degradation_params",
                      "clip_scores", "run_metrics"] {
            let columns = try sqlite(database, "SELECT name FROM pragma_table_info('\(table)')").split(separator: "\n").map(String.init)
                .filter { !(ignored[table] ?? []).contains($0) }
            var sql = "SELECT \(columns.map { "quote(\"\($0)\")" }.joined(separator: " || ',' || ")) FROM \(table)"
            if table == "params" { sql += " WHERE key NOT IN ('folded_shards', 'folded_runs')" }
            var rows = try sqlite(database, sql).split(separator: "\n").map(String.init)
            for (index, row) in rows.enumerated() {
                var text = row.replacingOccurrences(of: root, with: "ROOT")
                for run in runs { text = text.replacingOccurrences(of: run[0], with: "RUN(\(run[1]))") }
                rows[index] = text
            }
            dump[table] = rows.sorted()
        }
        return dump
    }

    static func sqlite(_ database: String, _ sql: String) throws -> String {
        try CatalogCLIFolder.sqlite(database, sql)
    }

    @Test func threeShardRunsPerCommandFoldIntoTheSingleProcessRows() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let sharded = folder.path("sharded"), single = folder.path("single")
        try Self.pipeline(root: sharded, shards: Self.shards)
        try Self.pipeline(root: single, shards: 1)
        let shardFiles = (1...Self.shards).map { sharded + "/shard-\($0).sqlite" }
        let merged = sharded + "/merged.sqlite"
        let merge = try SEKitBinary.run(["catalog", "merge", merged] + shardFiles.reversed())
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.contains("3 runs folded from shards"), "\(merge.stdout)")

        let expected = try Self.canonicalRows(single + "/single.sqlite", root: single)
        let actual = try Self.canonicalRows(merged, root: sharded)
        #expect(try Self.sqlite(merged, "SELECT count(*) FROM clip_degradations") != "0", "the corpus should have degraded clips")
        #expect(try Self.sqlite(merged, "SELECT count(*) FROM run_metrics WHERE subset LIKE 'degradation=%'") != "0")
        for table in ["runs", "params", "clips", "clip_scores", "run_metrics", "clip_degradations"] {
            #expect(!(expected[table] ?? []).isEmpty, "the single-process catalogue has \(table) rows")
        }
        for (table, rows) in expected {
            let got = actual[table] ?? []
            #expect(got == rows,
                    "\(table): \(Set(rows).subtracting(got).prefix(3)) expected; \(Set(got).subtracting(rows).prefix(3)) found")
        }
        // The folded runs record their shards; the shard runs are gone.
        #expect(try Self.sqlite(merged, "SELECT DISTINCT value_text FROM params WHERE key = 'folded_shards'") == "3")
        #expect(try Self.sqlite(merged, "SELECT count(*) FROM runs") == "3")
        #expect(try Self.sqlite(merged, "SELECT command_line FROM runs WHERE kind = 'mix'").contains("--shard") == false)

        // The merged score run prints the single process's per-clip CSV and JSON (`score --from-run`).
        let scoreRun = try Self.sqlite(merged, "SELECT id FROM runs WHERE kind = 'score'")
        let reprinted = try SEKitBinary.run(["score", "--from-run", scoreRun, "--catalog", merged, "--format", "json",
                                             "--per-clip", sharded + "/per-clip.csv"])
        #expect(reprinted.status == 0, "\(reprinted.stderr)")
        let singleCSV = try Data(contentsOf: URL(fileURLWithPath: single + "/per-clip-1.csv"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: sharded + "/per-clip.csv")) == singleCSV,
                "per-clip CSV differs from the single run's")
        let singleRun = try Self.sqlite(single + "/single.sqlite", "SELECT id FROM runs WHERE kind = 'score'")
        let singleJSON = try SEKitBinary.run(["score", "--from-run", String(singleRun.prefix(8)), "--catalog", single + "/single.sqlite",
                                              "--format", "json"])
        #expect(reprinted.stdout.replacingOccurrences(of: sharded, with: "ROOT") == singleJSON.stdout.replacingOccurrences(of: single,
                                                                                                                           with: "ROOT"))
        #expect(singleJSON.stdout.contains("\"summary\"") && singleJSON.stdout.contains("snr=5"))

        // Merging again adds nothing; the fold is the same run.
        let before = try Self.sqlite(merged, "SELECT id FROM runs ORDER BY id")
        let again = try SEKitBinary.run(["catalog", "merge", merged] + shardFiles)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("0 rows added"), "\(again.stdout)")
        #expect(try Self.sqlite(merged, "SELECT id FROM runs ORDER BY id") == before)
        #expect(try Self.canonicalRows(merged, root: sharded) == actual)

        // --no-fold keeps the shard runs.
        let unfolded = sharded + "/unfolded.sqlite"
        let plain = try SEKitBinary.run(["catalog", "merge", "--no-fold", unfolded] + shardFiles)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Self.sqlite(unfolded, "SELECT count(*) FROM runs") == "9")

        try refusals(folder: folder, sharded: sharded, shardFiles: shardFiles)
    }

    /// A shard missing, a shard given twice, a shard of another command, an unfinished shard and a
    /// file named twice each refuse the merge, naming the file, and write nothing.
    func refusals(folder: CatalogCLIFolder, sharded: String, shardFiles: [String]) throws {
        func refused(_ inputs: [String], naming files: [String], saying phrases: String...) throws {
            let out = folder.path("refused-\(UUID().uuidString).sqlite")
            let result = try SEKitBinary.run(["catalog", "merge", out] + inputs)
            #expect(result.status != 0, "merge of \(inputs) should be refused")
            #expect(files.contains { result.stderr.contains($0) } && phrases.allSatisfy { result.stderr.contains($0) }, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "nothing is written: a new OUT appears only when the merge succeeds")
        }
        try refused(Array(shardFiles.prefix(2)), naming: [shardFiles[0], shardFiles[1]], saying: "but not 3/3")
        try refused(shardFiles + [shardFiles[1]], naming: [shardFiles[1]], saying: "is given twice")

        // Shard 2 of the same mix run again into another catalogue: two runs of shard 2/3.
        let fixtures = GoldenCorpus.fixtures.path
        let again = sharded + "/again.sqlite"
        let rerun = try SEKitBinary.run(["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/running_tap.wav",
                                         "--noise", fixtures + "/noise/exercise_bike.wav", "--count", "12", "--seconds", "2", "--snr-db",
                                                 "0,5,10",
                                         "--split", "train=0.5,test=0.5", "--codec", "ulaw,mp3", "--codec-probability", "0.5", "--seed",
                                                 "11",
                                         "--out", sharded + "/corpus", "--shard", "2/3", "--catalog", again])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        try refused(shardFiles + [again], naming: [again], saying: "shard 2/3 of the mix run")

        // Shard 3 of another mix (another seed): the parameters that differ are named.
        let other = sharded + "/other.sqlite"
        let otherMix = try SEKitBinary.run(["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/running_tap.wav",
                                            "--count", "12", "--seconds", "2", "--seed", "12", "--out", folder.path("other-corpus"),
                                            "--shard", "3/3", "--catalog", other])
        #expect(otherMix.status == 0, "\(otherMix.stderr)")
        let copy = folder.path("two-shards.sqlite")
        _ = try SEKitBinary.run(["catalog", "merge", "--no-fold", copy, shardFiles[0], shardFiles[1]])
        _ = try Self.sqlite(copy, "DELETE FROM runs WHERE kind != 'mix'")
        try refused([copy, other], naming: [copy, other], saying: "differs", "seed 1")

        // An unfinished shard (killed: still `running`).
        let running = folder.path("running.sqlite")
        try FileManager.default.copyItem(atPath: shardFiles[2], toPath: running)
        _ = try Self.sqlite(running, "UPDATE runs SET status = 'running', finished_at = NULL WHERE kind = 'score'")
        try refused([shardFiles[0], shardFiles[1], running], naming: [running], saying: "is running")
    }
}
