import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The one run lifecycle and its status policy.
@Suite struct RecordedRunTests {
    struct Broken: Error, CustomStringConvertible { var description: String { "disk full" } }

    func withCatalog(_ body: (Catalog) throws -> Void) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        try body(try Catalog.open(at: folder.file("catalog.sqlite")))
    }

    @Test func finishedRunKeepsItsParamsAndPerItemFailureCounts() throws {
        try withCatalog { catalog in
            let run = try RecordedRun.begin(RunContext(catalog: catalog, commandLine: ["sekit", "x"]), kind: .score,
                                            name: "ckpt", params: ["metrics": "stoi"])
            #expect(try catalog.run(run.id!.rawValue).status == .running)
            try run.finish(params: ["clips": "10", "clips_failed": "2"])
            let details = try catalog.runDetails(run.id!.rawValue)
            // Items that failed are counted, the run itself finished its work: `finished`, no error.
            #expect(details.run.status == .finished && details.run.error == nil && details.run.name == "ckpt")
            #expect(Dictionary(uniqueKeysWithValues: details.params.map { ($0.key, $0.valueText) })
                    == ["metrics": "stoi", "clips": "10", "clips_failed": "2"])
            try run.finish()  // a second end is ignored
            run.fail(Broken())
            #expect(try catalog.run(run.id!.rawValue).status == .finished)
        }
    }

    @Test func aThrowingCommandMarksItsRunFailedWithTheError() throws {
        try withCatalog { catalog in
            let run = try RecordedRun.begin(RunContext(catalog: catalog, commandLine: ["sekit", "x"]), kind: .features,
                                            name: "f.h5", params: [:])
            #expect(throws: Broken.self) { try run.failing { throw Broken() } }
            let record = try catalog.run(run.id!.rawValue)
            #expect(record.status == .failed && record.error == "disk full" && record.finishedAt != nil)
        }
    }

    @Test func theContextNameWinsOverTheCommandsDefault() throws {
        try withCatalog { catalog in
            let run = try RecordedRun.begin(RunContext(catalog: catalog, commandLine: ["sekit"], name: "given"), kind: .mix,
                                            name: "folder", params: [:])
            #expect(try catalog.run(run.id!.rawValue).name == "given")
        }
    }

    @Test func reopenTakesUpAnEndedRunAndReplacesParams() throws {
        try withCatalog { catalog in
            let first = try RecordedRun.begin(RunContext(catalog: catalog, commandLine: ["sekit"]), kind: .mix, name: "m",
                                              params: ["a": "1"])
            first.fail(Broken())
            let again = try #require(try RecordedRun.reopen(first.id!, in: catalog, params: ["a": "2"]))
            #expect(again.reopened && again.id == first.id)
            #expect(try catalog.run(first.id!.rawValue).status == .running)
            try again.finish()
            #expect(try catalog.runs().count == 1 && catalog.run(first.id!.rawValue).status == .finished)
            #expect(try RecordedRun.reopen(RunID("no-such-run"), in: catalog, params: [:]) == nil)
        }
    }

    @Test func withoutACatalogueEverythingIsANoOp() throws {
        let run = try RecordedRun.begin(.unrecorded, kind: .score, name: "x", params: ["a": "1"])
        #expect(run.id == nil && run.summaryLine == nil)
        try run.setParams(["b": "2"])
        try run.finish(params: ["c": "3"])
        #expect(throws: Broken.self) { try run.failing { throw Broken() } }
    }
}
