import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Comparisons throw ``ComparisonError``: their own refusals as parameters, the catalogue's
/// (unknown runs, bad filters) carried unchanged, with the catalogue's message and code.
@Suite struct ComparisonErrorTests {
    func withCatalog(_ body: (Catalog) throws -> Void) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        try body(try Catalog.open(at: folder.file("catalog.sqlite")))
    }

    @Test func anUnknownRunIsTheCataloguesErrorCarriedUnchanged() throws {
        try withCatalog { catalog in
            let expected = CatalogError.noSuchRun(path: catalog.url.path, reference: "nope", candidates: [])
            #expect(throws: ComparisonError.catalog(expected)) { try RunDiff.compute("nope", "other", in: catalog) }
            #expect(throws: ComparisonError.catalog(expected)) { try Leaderboard.make(Leaderboard.Request(corpus: "nope"), from: catalog) }
            #expect(ComparisonError.catalog(expected).description == expected.description)
            #expect(ComparisonError.catalog(expected).code == "no-such-run")
        }
    }

    @Test func aComparisonsOwnRefusalNamesTheParameter() throws {
        try withCatalog { catalog in
            do {
                _ = try BestRun.find(BestRun.Request(metric: "no-such-metric"), in: catalog)
                Issue.record("an unknown metric was accepted")
            } catch let error as ComparisonError {
                guard case .invalidParameter(let name, let value, _) = error else { Issue.record("\(error)"); return }
                #expect(name == "metric" && value == "no-such-metric")
                #expect(error.invalidParameter?.name == "metric" && error.code == "invalid-parameter")
                #expect("\(error)".hasPrefix("invalid metric = no-such-metric: not a metric SEKit knows the direction of"))
            }
            let run = try catalog.beginRun(kind: .mix, name: "m", commandLine: ["sekit", "mix"])
            #expect(throws: ComparisonError.invalidParameter(name: "run", value: run.rawValue,
                                                             reason: "is a mix run; compare score runs")) {
                try RunScores.load(of: try catalog.run(run.rawValue), from: catalog)
            }
        }
    }

    @Test func aBadFilterIsTheCataloguesFilterError() throws {
        try withCatalog { catalog in
            do {
                _ = try BestRun.find(BestRun.Request(metric: "stoi", filter: "name ="), in: catalog)
                Issue.record("a bad filter was accepted")
            } catch let error as ComparisonError {
                guard case .catalog(let inner) = error else { Issue.record("\(error)"); return }
                #expect(inner.code == "filter" && "\(error)" == "\(inner)")
            }
        }
    }
}
