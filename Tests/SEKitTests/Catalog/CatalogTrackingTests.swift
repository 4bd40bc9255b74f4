import Foundation
import GRDB
import Testing
@testable import SEKit

/// Runs made elsewhere: per-step metrics, parameters and tags logged into a running run, what is
/// refused, and how merges and checks treat them.
@Suite struct CatalogTrackingTests {
    static func trainRun(_ catalog: Catalog, name: String = "crnn", pid: Int? = nil) throws -> RunID {
        try catalog.beginRun(kind: .train, name: name, commandLine: ["train.py"], params: ["lr": "0.001"], tags: ["stage": "warm-up"],
                             pid: pid)
    }

    @Test func entriesAreRecordedAndRefusalsNameTheKeyAndLeaveTheOthers() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let run = try Self.trainRun(catalog)
        let outcomes = try catalog.log([
            RunLogEntry(step: 0, metrics: ["loss": 0.9, "valid_stoi": 0.7]),
            RunLogEntry(step: 1, metrics: ["loss": 0.5, "valid_stoi": .nan]),        // refused whole: loss at 1 not kept
            RunLogEntry(step: 0, metrics: ["loss": 0.9]),                              // the same again: accepted
            RunLogEntry(step: 0, metrics: ["loss": 0.8]),                              // another value: refused
            RunLogEntry(params: ["lr": "0.01"]),                                       // a parameter keeps its value
            RunLogEntry(params: ["lr": "0.001", "epochs": "40"], tags: ["stage": "main"]),
            RunLogEntry(metrics: ["loss": 1]),                                         // no step
        ], to: run)
        #expect(outcomes.map { $0 == nil } == [true, false, true, false, false, true, false])
        #expect("\(outcomes[1]!)".contains("metric valid_stoi") && "\(outcomes[1]!)".contains("nan"), "\(outcomes[1]!)")
        #expect("\(outcomes[3]!)".contains("metric loss") && "\(outcomes[3]!)".contains("step 0"), "\(outcomes[3]!)")
        #expect("\(outcomes[4]!)".contains("lr = 0.001 already"), "\(outcomes[4]!)")
        let metrics = try catalog.stepMetrics(of: run)
        #expect(metrics.map { "\($0.key)@\($0.step)=\($0.value)" } == ["loss@0=0.9", "valid_stoi@0=0.7"])
        #expect(try catalog.params(of: run).map { "\($0.key)=\($0.valueText)" } == ["epochs=40", "lr=0.001"])
        #expect(try catalog.tags(of: run).map { "\($0.key)=\($0.value)" } == ["stage=main"])
        let series = try #require(try catalog.runDetails("crnn").series)
        #expect(series.map(\.key) == ["loss", "valid_stoi"] && series[0].steps == [0])
    }

    @Test func aRunThatEndedTakesNothing() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let run = try Self.trainRun(catalog)
        try catalog.finishRun(run)
        let refused = #expect(throws: CatalogError.self) { _ = try catalog.log([RunLogEntry(step: 0, metrics: ["loss": 1])], to: run) }
        #expect(refused == .unknownRun(path: catalog.url.path, id: run.rawValue,
                                       reason: "is finished; `sekit runs` logs into a running run only"))
        let checkpoint = folder.file("ckpt.pt")
        try Data("weights".utf8).write(to: checkpoint)
        #expect(throws: CatalogError.self) { try catalog.recordArtifactOfRunningRun(run, at: checkpoint, kind: nil) }
        #expect(throws: CatalogError.self) { _ = try catalog.log([RunLogEntry(tags: ["stage": "released"])], to: run) }
        #expect(try catalog.tags(of: run).map(\.value) == ["warm-up"])
        #expect(try catalog.stepMetrics(of: run).isEmpty)
    }

    @Test func artifactsAreHashedFilesOrFolders() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let run = try Self.trainRun(catalog)
        try Data("weights".utf8).write(to: folder.file("ckpt.pt"))
        try FileManager.default.createDirectory(at: folder.file("onnx"), withIntermediateDirectories: true)
        try catalog.recordArtifactOfRunningRun(run, at: folder.file("ckpt.pt"), kind: "checkpoint")
        try catalog.recordArtifactOfRunningRun(run, at: folder.file("onnx"), kind: nil)
        #expect(throws: CatalogError.self) { try catalog.recordArtifactOfRunningRun(run, at: folder.file("missing.pt"), kind: nil) }
        let artifacts = try catalog.runDetails(run.rawValue).artifacts
        #expect(artifacts.map(\.kind) == ["checkpoint", "folder"])
        #expect(artifacts[0].sha256 == (try SHA256.hex(ofFileAt: folder.file("ckpt.pt"))) && artifacts[0].bytes == 7)
        #expect(artifacts[1].sha256 == nil)
    }

    @Test func mergesCarryMetricsAndTagsAndChecksMarkAbandonedTrainRunsFailed() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let shard = try Catalog.open(at: folder.file("shard.sqlite"))
        let dead = try RunReferenceTests.deadPID()
        let run = try Self.trainRun(shard, pid: dead)
        let steps = (0..<50).map { RunLogEntry(step: $0, metrics: ["loss": 1 / Double($0 + 1), "valid_stoi": 0.5 + Double($0) / 100]) }
        #expect(try shard.log(steps, to: run).allSatisfy { $0 == nil })
        let out = try Catalog.open(at: folder.file("out.sqlite"))
        let report = try out.merge([shard.url])
        #expect(report.inserted[shard.url.path]?["run_step_metrics"] == 100 && report.inserted[shard.url.path]?["run_tags"] == 1)
        #expect(try out.stepMetrics(of: run) == (try shard.stepMetrics(of: run)))
        #expect(try out.tags(of: run) == (try shard.tags(of: run)))
        #expect(try out.merge([shard.url]).totalInserted == 0)
        // The script that owned the run is gone: check marks it failed, keeping what it logged.
        let checked = try out.check()
        #expect(checked.abandonedRuns == [run])
        #expect(try out.run(run.rawValue).status == .failed && out.stepMetrics(of: run).count == 100)
        #expect(checked.integrityProblems.isEmpty)
    }
}
