import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `runs list --order-by` and run references (id, prefix, name).
@Suite struct CatalogOrderingTests {
    /// A catalogue with four score runs: epochs 3, 12, none, 7 (a numeric parameter: 12 sorts
    /// after 7, not before it as text would), STOI means 0.8, 0.9, 0.85, none.
    func catalogue(_ folder: TemporaryFolder) throws -> (Catalog, [RunID]) {
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        var ids: [RunID] = []
        for (name, epoch, stoi) in [("crn-a", "3", 0.8), ("crn-b", "12", 0.9), ("crn-c", nil, 0.85), ("crn-d", "7", nil)] as [(String,
                String?, Double?)] {
            let id = try catalog.beginRun(kind: .score, name: name, commandLine: ["t"], params: epoch.map { ["epoch": $0] } ?? [:])
            if let stoi { try catalog.insertRunMetrics([RunMetricRecord(runID: id, metric: "stoi", mean: stoi, n: 10)]) }
            try catalog.finishRun(id)
            ids.append(id)
        }
        return (catalog, ids)
    }

    func names(_ catalog: Catalog, orderBy: String, kind: RunKind? = .score) throws -> [String] {
        var text = ""
        try catalog.exportRuns(kind: kind, filter: nil, orderBy: orderBy, format: .csv) { text += $0 }
        return text.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[2]) }
    }

    @Test func ordersByMetricsAndNumericParamsWithMissingValuesLast() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let (catalog, _) = try catalogue(folder)
        #expect(try names(catalog, orderBy: "metrics.stoi.mean desc") == ["crn-b", "crn-c", "crn-a", "crn-d"])
        #expect(try names(catalog, orderBy: "metrics.stoi.mean asc") == ["crn-a", "crn-c", "crn-b", "crn-d"])
        #expect(try names(catalog, orderBy: "params.epoch") == ["crn-a", "crn-d", "crn-b", "crn-c"])
        #expect(try names(catalog, orderBy: "params.epoch DESC") == ["crn-b", "crn-d", "crn-a", "crn-c"])
        // Several keys: the second breaks the first's ties (every run has kind 'score').
        #expect(try names(catalog, orderBy: "kind, name desc") == ["crn-d", "crn-c", "crn-b", "crn-a"])
    }

    @Test func badSortKeysAreFilterErrorsWithTheColumn() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let (catalog, _) = try catalogue(folder)
        for (spec, reason) in [("name sideways", "asc or desc"), ("nosuchfield", "unknown field"), ("name,", "empty sort key"),
                               ("metrics.stoi", "metrics.NAME.FIELD"), ("name asc desc", "not expected")] {
            do {
                _ = try names(catalog, orderBy: spec)
                Issue.record("\(spec) was accepted")
            } catch let error as CatalogError {
                guard case .filter(let expression, _, let message) = error else { Issue.record("\(error)"); continue }
                #expect(expression == spec && message.contains(reason), "\(message)")
            }
        }
    }

    @Test func runsAreFoundByIdPrefixOrNameAndAmbiguousNamesListTheCandidates() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let (catalog, ids) = try catalogue(folder)
        #expect(try catalog.resolveRun("crn-b").id == ids[1])
        #expect(try catalog.resolveRun(ids[2].rawValue).id == ids[2])
        #expect(try catalog.resolveRun(String(ids[3].rawValue.prefix(13))).id == ids[3])
        // A name is its latest finished run: a newer attempt still running does not hide it, and
        // logging into the name finds the running one.
        let again = try catalog.beginRun(kind: .score, name: "crn-b", commandLine: ["t"])
        #expect(try catalog.resolveRun("crn-b").id == ids[1])
        #expect(try catalog.resolveRun("crn-b", preferring: .running).id == again)
        // Two live runs of one name and none finished: ambiguous, both listed (begun within the same
        // millisecond, their order is the ids').
        let first = try catalog.beginRun(kind: .score, name: "crn-e", commandLine: ["t"])
        let second = try catalog.beginRun(kind: .score, name: "crn-e", commandLine: ["t"])
        #expect(try ambiguousCandidates(catalog, "crn-e") == [first.rawValue, second.rawValue])
        #expect(throws: CatalogError.self) { try catalog.resolveRun("no-such-run") }
        // A kind narrows a name down.
        let mix = try catalog.beginRun(kind: .mix, name: "crn-a", commandLine: ["t"])
        #expect(try catalog.resolveRun("crn-a", kind: .score).id == ids[0])
        #expect(try catalog.resolveRun("crn-a", kind: .mix).id == mix)
    }

    /// The run ids an ambiguous reference lists (empty when it resolved or failed otherwise).
    private func ambiguousCandidates(_ catalog: Catalog, _ reference: String) throws -> Set<String> {
        do {
            _ = try catalog.resolveRun(reference)
        } catch {
            if case .ambiguousRun(_, _, let candidates) = error { return Set(candidates.map { String($0.prefix(36)) }) }
        }
        return []
    }
}
