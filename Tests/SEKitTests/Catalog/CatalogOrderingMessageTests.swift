import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Issue 26 item 22 (listings): `--order-by` shows the column it sorts by, points at the word at
/// fault, and refuses thousands of keys with a message of its own (not SQLite's).
@Suite struct CatalogOrderingMessageTests {
    func catalog(_ folder: TemporaryFolder) throws -> Catalog {
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        for (name, stoi) in [("low", 0.5), ("high", 0.9)] {
            let id = try catalog.beginRun(kind: .score, name: name, commandLine: ["test"], params: ["epoch": "3"])
            try catalog.insertRunMetrics([RunMetricRecord(runID: id, metric: "stoi", mean: stoi, n: 4)])
            try catalog.finishRun(id)
        }
        return catalog
    }

    @Test func theSortColumnIsShown() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try catalog(folder)
        var csv = ""
        _ = try catalog.exportRuns(filter: nil, orderBy: "metrics.stoi.mean desc, name", format: .csv) { csv += $0 }
        let lines = csv.split(separator: "\n")
        #expect(lines[0] == "id,kind,name,status,started_at,finished_at,clips,metrics.stoi.mean,command_line", "\(lines[0])")
        #expect(lines[1].contains(",high,") && lines[1].contains(",0.9,"), "\(lines[1])")
        var plain = ""
        _ = try catalog.exportRuns(filter: nil, format: .csv) { plain += $0 }
        #expect(plain.hasPrefix(Catalog.runListingColumns.joined(separator: ",") + "\n"), "no --order-by: the listing is unchanged")
    }

    @Test func anExtraWordIsPointedAt() {
        do {
            _ = try CatalogOrdering.compile("name asc desc", context: .runs)
            Issue.record("accepted")
        } catch let CatalogError.filter(_, column, _) {
            #expect(column == 10, "column \(column): the caret must be under 'desc'")
        } catch { Issue.record("\(error)") }
        do {
            _ = try CatalogOrdering.compile("kind,  name   upward", context: .runs)
            Issue.record("accepted")
        } catch let CatalogError.filter(_, column, _) {
            #expect(column == 15, "column \(column): the caret must be under 'upward'")
        } catch { Issue.record("\(error)") }
    }

    @Test func thousandsOfKeysAreRefusedClearly() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try catalog(folder)
        let spec = Array(repeating: "name", count: 20_000).joined(separator: ",")
        do {
            _ = try catalog.exportRuns(filter: nil, orderBy: spec, format: .csv) { _ in }
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("at most \(CatalogOrdering.maximumKeys)") && !"\(error)".contains("SQLite"), "\(error)")
        }
        let most = Array(repeating: "params.epoch desc", count: CatalogOrdering.maximumKeys).joined(separator: ",")
        #expect(try catalog.exportRuns(filter: nil, orderBy: most, format: .csv) { _ in } == 2)
    }
}
