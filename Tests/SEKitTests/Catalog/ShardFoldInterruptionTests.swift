import Foundation
import Testing
@testable import SEKit
@testable import SEKitCatalog
@testable import SEKitSignal

/// A fold into an existing catalogue that stops half-way (an input refused, the process killed)
/// never leaves a `finished` folded run holding part of its clips, and `catalog check` verifies
/// the rows of folded runs against their counts.
@Suite struct ShardFoldInterruptionTests {
    static let clipsPerShard = 40

    /// A shard catalogue at `url` holding shard `index`/`count` of one mix command, with its clips
    /// (`RUN/clip-K` for K ≡ index - 1 mod count) and the counts a mix records.
    @discardableResult
    static func mixShard(_ url: URL, index: Int, count: Int) throws -> RunID {
        let catalog = try Catalog.open(at: url)
        let shard = "\(index)/\(count)"
        let run = try catalog.beginRun(kind: .mix, name: "corpus",
                                       commandLine: ["sekit", "mix", "--out", "/c", "--seed", "3", "--shard", shard, "--catalog", url.path],
                                       params: ["shard": shard, "seed": "3", "clips_planned": "\(count * clipsPerShard)", "out": "/c"])
        let indices = (0..<(count * clipsPerShard)).filter { $0 % count == index - 1 }
        let clips = indices.map { k in
            var clip = CatalogTestSupport.clip(run, index: k)
            clip.id = "\(run.rawValue)/clip-\(k)"
            return clip
        }
        try catalog.insertClips(clips)
        try catalog.setParams(["clips_written": "\(clips.count)", "clips_resumed": "0", "clips_failed": "0"], of: run)
        try catalog.finishRun(run)
        return run
    }

    /// Three shard catalogues of one mix command in `folder`.
    static func threeShards(_ folder: TemporaryFolder) throws -> [URL] {
        try (1...3).map { index -> URL in
            let url = folder.file("shard-\(index).sqlite")
            try mixShard(url, index: index, count: 3)
            return url
        }
    }

    /// An existing output catalogue with one run of its own, and a catalogue holding a run with the
    /// same id but another command line (merging it is refused as a conflict).
    static func outputAndConflictingInput(_ folder: TemporaryFolder) throws -> (out: Catalog, conflicting: URL) {
        let out = try Catalog.open(at: folder.file("out.sqlite"))
        let own = try out.beginRun(kind: .other, name: "own", commandLine: ["sekit", "own"])
        try out.finishRun(own)
        let conflicting = try Catalog.open(at: folder.file("conflicting.sqlite"))
        let record = RunRecord(id: own, kind: .other, name: "own", status: .finished, startedAt: Date(), finishedAt: Date(),
                               toolVersion: SEKitVersion.string, commandLine: "sekit another", workingDirectory: "/",
                               host: "h", pid: 1, parentID: nil, error: nil)
        try conflicting.write { db in try record.insert(db) }
        return (out, conflicting.url)
    }

    static func foldedRun(_ catalog: Catalog) throws -> RunRecord {
        try catalog.read { db in
            try RunRecord.fetchOne(db, sql: """
                SELECT runs.* FROM runs JOIN params ON params.run_id = runs.id AND params.key = 'folded_shards'
                """)!
        }
    }

    /// How many runs carry the mark of a fold under way.
    static func foldingMarks(_ catalog: Catalog) throws -> Int {
        try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM params WHERE key = ?",
                                                  arguments: [Catalog.foldingKey]) ?? 0 }
    }

    static func clipCount(_ catalog: Catalog, run: RunID) throws -> Int {
        try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM clips WHERE run_id = ?", arguments: [run]) ?? 0 }
    }

    @Test func aFoldStoppedByARefusedInputIsNotFinishedAndTheSameMergeCompletesIt() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let shards = try Self.threeShards(folder)
        let (out, conflicting) = try Self.outputAndConflictingInput(folder)
        // Shards 1 and 2 are copied, then the conflicting input stops the merge before shard 3.
        #expect(throws: RunsError.self) {
            _ = try out.merge([shards[0], shards[1], conflicting, shards[2]], folding: .recomputingScores)
        }
        let stopped = try Self.foldedRun(out)
        #expect(try Self.clipCount(out, run: stopped.id) == 2 * Self.clipsPerShard)
        #expect(stopped.status == .failed, "a fold holding 2 of its 3 shards' clips is \(stopped.status.rawValue)")
        #expect(stopped.error?.contains("run the same merge again") == true, "\(stopped.error ?? "no error")")
        #expect(try Self.foldingMarks(out) == 0)

        let report = try out.merge(shards, folding: .recomputingScores)
        let folded = try Self.foldedRun(out)
        #expect(folded.id == stopped.id && folded.status == .finished && folded.error == nil)
        #expect(try Self.clipCount(out, run: folded.id) == 3 * Self.clipsPerShard)
        #expect(report.folded.map(\.new) == [true], "the fold completed now is reported as new")
        #expect(try Self.foldingMarks(out) == 0)
        let check = try out.check()
        #expect(check.isClean && check.incompleteFolds == nil, "\(check)")
    }

    @Test func checkReportsAFinishedFoldMissingClips() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let shards = try Self.threeShards(folder)
        let out = try Catalog.open(at: folder.file("out.sqlite"))
        _ = try out.merge(shards, folding: .recomputingScores)
        let folded = try Self.foldedRun(out)
        #expect(try out.check().isClean)
        // What a merge killed half-way by an older SEKit left: finished, a shard's clips missing.
        try out.write { db in
            try db.execute(sql: "DELETE FROM clips WHERE run_id = ? AND clip_index % 3 = 2", arguments: [folded.id])
        }
        let check = try out.check()
        #expect(!check.isClean)
        let problem = try #require(check.incompleteFolds?.first)
        #expect(problem.runID == folded.id && problem.expected == 3 * Self.clipsPerShard && problem.found == 2 * Self.clipsPerShard)
        #expect(check.text(dryRun: false).contains("incomplete fold: run \(folded.id): folded mix run holds 80 of its 120 clips"))
        // The same merge again puts the missing rows back.
        _ = try out.merge(shards, folding: .recomputingScores)
        #expect(try out.check().isClean)
        #expect(try Self.clipCount(out, run: folded.id) == 3 * Self.clipsPerShard)
    }

    @Test func aFoldWhoseMergeIsGoneIsMarkedAbandonedByCheckAndOneUnderWayElsewhereIsNot() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let shards = try Self.threeShards(folder)
        let out = try Catalog.open(at: folder.file("out.sqlite"))
        _ = try out.merge(shards, folding: .recomputingScores)
        let folded = try Self.foldedRun(out)
        // The state a merge killed after its first input leaves: running, marked with the merge's process.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let host = ProcessInfo.processInfo.hostName
        func interrupt(by owner: String) throws {
            try out.write { db in
                try db.execute(sql: "UPDATE runs SET status = 'running', finished_at = NULL, host = 'node1,node2', pid = 1 WHERE id = ?",
                               arguments: [folded.id])
                try ParamRecord(runID: folded.id, key: Catalog.foldingKey, value: owner).upsert(db)
            }
        }
        try interrupt(by: "elsewhere.example:\(gone.processIdentifier)")
        var check = try out.check()
        #expect(check.runningElsewhere == [folded.id] && check.abandonedRuns.isEmpty)

        try interrupt(by: "\(host):\(gone.processIdentifier)")
        check = try out.check()
        #expect(check.abandonedRuns == [folded.id] && check.runningElsewhere.isEmpty, "\(check)")
        let marked = try Self.foldedRun(out)
        #expect(marked.status == .failed)
        #expect(marked.error?.contains("the catalog merge folding it (process \(gone.processIdentifier) on \(host)) is gone") == true,
                "\(marked.error ?? "")")
        _ = try out.merge(shards, folding: .recomputingScores)
        #expect(try Self.foldedRun(out).status == .finished)
    }
}
