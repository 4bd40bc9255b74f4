import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Recording runs throws ``RunsError``: its own refusals (parameters, log lines) and the
/// catalogue's errors carried unchanged, with the catalogue's message and code.
@Suite struct RunsErrorTests {
    @Test func aParameterTheCommandRecordsItselfIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        var context = RunContext(catalog: try Catalog.open(at: folder.file("catalog.sqlite")), commandLine: ["sekit", "x"])
        context.extraParams = ["seed": "7"]
        do {
            _ = try RecordedRun.begin(context, kind: .mix, name: "m", params: ["seed": "1"])
            Issue.record("a param the command records was accepted")
        } catch let error as RunsError {
            #expect(error.invalidParameter?.name == "param" && error.invalidParameter?.value == "seed=7", "\(error)")
            #expect("\(error)" == "invalid param = seed=7: the command records seed itself (1); choose another key")
        }
    }

    @Test func anUnknownParentIsTheCataloguesErrorCarriedUnchanged() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        let expected = CatalogError.unknownRun(path: catalog.url.path, id: "no-such-run", reason: "parent run not found")
        #expect(throws: RunsError.catalog(expected)) {
            try RecordedRun.begin(RunContext(catalog: catalog, commandLine: ["sekit"]), kind: .score, name: "s", params: [:],
                                  parent: RunID("no-such-run"))
        }
        #expect(RunsError.catalog(expected).description == expected.description)
        #expect(RunsError.catalog(expected).code == "unknown-run")
    }

    @Test func aRefusedLogLineNamesItsNumber() throws {
        #expect(throws: RunsError.logLine(line: 3, reason: "not JSON: nope")) { try RunLogLine.parse("nope", lineNumber: 3) }
        #expect(RunsError.logLine(line: 3, reason: "not JSON: nope").description == "line 3: not JSON: nope")
        #expect(RunsError.shardMismatch(path: "a.sqlite", reason: "why").description == "a.sqlite: why; nothing was merged")
    }
}
