import Foundation
import Testing
@testable import SEKit

/// One home for run references: a name, a unique id prefix or an id; none lists runs alike,
/// several list themselves; logging prefers the one run still running.
@Suite struct RunResolutionTests {
    @Test func aReferenceToNoRunListsRunsAlikeElseTheLatest() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        /// The candidates listed for `reference`, which must name no run.
        func candidates(_ reference: String) -> [String]? {
            let error = #expect(throws: CatalogError.self) { _ = try catalog.resolveRun(reference) }
            guard case let .noSuchRun(_, named, candidates) = error, named == reference else { return nil }
            return candidates
        }
        #expect(candidates("crnn") == [])
        for name in ["crnn-a", "crnn-b", "wiener"] { _ = try catalog.beginRun(kind: .train, name: name, commandLine: ["train.py"]) }
        let alike = try #require(candidates("crnn"))
        #expect(alike.count == 2 && alike.allSatisfy { $0.contains("crnn-") }, "\(alike)")
        let latest = try #require(candidates("zzz"))
        #expect(latest.count == 3, "nothing alike: the latest runs")
        #expect(CatalogError.noSuchRun(path: "c", reference: "zzz", candidates: latest).description.contains("wiener"))
    }

    @Test func loggingResolvesANameToItsOneRunningRun() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let old = try catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py"])
        try catalog.finishRun(old)
        let killed = try RunReferenceTests.killedRun(catalog, name: "crnn", commandLine: "train.py", pid: try RunReferenceTests.deadPID())
        let live = try catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py", "--again"])
        #expect(try catalog.resolveRun("crnn", preferring: .running).id == live)
        #expect(try catalog.resolveRun("crnn").id == old, "reading: the latest finished run, not the one still going")
        try catalog.finishRun(live)
        #expect(throws: CatalogError.self, "two finished runs") { _ = try catalog.resolveRun("crnn", preferring: .running) }
        #expect(try catalog.resolveRun(killed.rawValue, preferring: .running).id == killed, "an exact id is that run")
        #expect(try catalog.resolveRun(String(old.rawValue.prefix(8))).id == old)
    }
}
