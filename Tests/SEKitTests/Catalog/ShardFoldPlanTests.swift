import Foundation
import Testing
@testable import SEKit
@testable import SEKitCatalog
@testable import SEKitSignal

/// Planning the fold of shard runs: identity, combination of parameters, attempts, refusals.
@Suite struct ShardFoldPlanTests {
    static func run(_ kind: RunKind = .score, shard: String, status: RunStatus = .finished, started: TimeInterval = 0,
                    params: [String: String] = [:], parent: RunID? = nil, file: String = "a.sqlite") -> ShardRun {
        let id = RunID.make()
        var all = ["metrics": "stoi", "checkpoint": "ckpt", "shard": shard]
        all.merge(params) { _, new in new }
        let record = RunRecord(id: id, kind: kind, name: "ckpt", status: status, startedAt: Date(timeIntervalSince1970: started),
                               finishedAt: status == .running ? nil : Date(timeIntervalSince1970: started + 1), toolVersion: "1",
                               commandLine: "sekit score --shard \(shard) --catalog '/x y/\(file)' --metrics stoi",
                               workingDirectory: "/", host: "node\(shard.prefix(1))", pid: 7, parentID: parent, error: nil)
        return ShardRun(record: record, params: all, shard: try! Shard(parsing: shard), file: file)
    }

    @Test func foldingIDIsTheSameWhateverTheOrderAndAVersion8UUID() {
        let ids = (0..<4).map { _ in RunID.make() }
        #expect(RunID.folding(ids) == RunID.folding(ids.reversed()))
        #expect(RunID.folding(ids) != RunID.folding(Array(ids.prefix(3))))
        let text = RunID.folding(ids).rawValue
        #expect(UUID(uuidString: text) != nil && Array(text)[14] == "8")
    }

    @Test func countsAreSummedListsJoinedInClipOrderAndTheCommandLineLosesShardAndCatalog() throws {
        let shards = [Self.run(shard: "2/2", params: ["clips": "3", "resampled_from_hz": "44100", "clips_missing": "1"]),
                      Self.run(shard: "1/2", params: ["clips": "4", "resampled_from_hz": "8000,44100"])]
        let groups = try ShardFoldPlanner.plan(shards, existing: [])
        let group = try #require(groups.first)
        #expect(groups.count == 1 && group.shards.map(\.shard.index) == [1, 2])
        #expect(group.params["clips"] == "7" && group.params["resampled_from_hz"] == "8000,44100")
        #expect(group.params["clips_missing"] == "1", "a count recorded at finish is not part of the identity")
        #expect(group.params["shard"] == "1/1" && group.params["folded_shards"] == "2")
        #expect(group.params["folded_runs"] == group.shards.map(\.record.id.rawValue).joined(separator: ","))
        #expect(group.folded.commandLine == "sekit score --metrics stoi")
        #expect(group.folded.host == "node1,node2")
        #expect(group.folded.id == RunID.folding(group.shardIDs))
        #expect(ShardFoldRules.combine(["clip 9: b\nclip 1: a", "clip 4: c"], as: .lines) == "clip 1: a\nclip 4: c\nclip 9: b")
        #expect(Catalog.shellWords("a 'b c' 'it'\\''s' d") == ["a", "b c", "it's", "d"])
    }

    @Test func aFailedAttemptOfAShardThatFinishedLaterFoldsAway() throws {
        let failed = Self.run(shard: "2/2", status: .failed, started: 0)
        let again = Self.run(shard: "2/2", started: 10)
        let group = try #require(try ShardFoldPlanner.plan([Self.run(shard: "1/2"), failed, again], existing: []).first)
        #expect(group.shards[1].record.id == again.record.id)
        #expect(group.superseded.map(\.record.id) == [failed.record.id])
        #expect(Set(group.foldedAwayIDs).count == 3)
    }

    @Test func mismatchesAreRefusedNamingTheFile() throws {
        func refusal(_ runs: [ShardRun]) -> String {
            do { _ = try ShardFoldPlanner.plan(runs, existing: []); return "" } catch { return "\(error)" }
        }
        #expect(refusal([Self.run(shard: "1/3"), Self.run(shard: "3/3", file: "c.sqlite")]).contains("but not 2/3"))
        let twice = refusal([Self.run(shard: "1/2"), Self.run(shard: "2/2"), Self.run(shard: "2/2", file: "b.sqlite")])
        #expect(twice.contains("given twice") && twice.contains("b.sqlite"))
        let other = refusal([Self.run(shard: "1/2"), Self.run(shard: "2/2", params: ["metrics": "pesq_wb"], file: "b.sqlite")])
        #expect(other.contains("metrics") && other.contains("pesq_wb"), "\(other)")
        let unfinished = refusal([Self.run(shard: "1/2"), Self.run(shard: "2/2", status: .running, file: "b.sqlite")])
        #expect(unfinished.contains("b.sqlite") && unfinished.contains("is running"))
        let kind = refusal([Self.run(.report, shard: "1/2")])
        #expect(kind.contains("only mix, features, enhance, synthesize, score runs fold"))
    }

    @Test func childrenFoldUnderTheirParentsFold() throws {
        let mixes = [Self.run(.mix, shard: "1/2", params: ["seed": "1"]), Self.run(.mix, shard: "2/2", params: ["seed": "1"])]
        let scores = [Self.run(shard: "1/2", parent: mixes[0].record.id), Self.run(shard: "2/2", parent: mixes[1].record.id)]
        let groups = try ShardFoldPlanner.plan(scores + mixes, existing: [])
        #expect(groups.map(\.kind) == [.mix, .score])
        #expect(groups[1].folded.parentID == groups[0].folded.id)
    }
}
