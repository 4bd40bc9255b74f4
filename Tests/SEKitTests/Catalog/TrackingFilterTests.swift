import Foundation
import Testing
@testable import SEKit

/// The filter language reaches ancestors (`lineage.params.KEY`), tags (`tags.KEY`) and per-step
/// metrics (`metrics.NAME.last|first|min|max|steps`); `runs list --columns` shows them.
@Suite struct TrackingFilterTests {
    /// mix (seed 1) ← enhance (noise_estimate mcra) ← score; and a second chain with leading noise.
    struct Chains {
        let catalog: Catalog
        let mix: RunID, mcra: RunID, leading: RunID, scoreMCRA: RunID, scoreLeading: RunID
    }

    static func chains(_ folder: TemporaryFolder) throws -> Chains {
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let mix = try catalog.beginRun(kind: .mix, name: "corpus", commandLine: ["sekit", "mix"], params: ["seed": "1", "jobs": "4"])
        let mcra = try catalog.beginRun(kind: .enhance, name: "wiener", commandLine: ["sekit", "enhance"],
                                        params: ["noise_estimate": "mcra"], parent: mix)
        let leading = try catalog.beginRun(kind: .enhance, name: "wiener-leading", commandLine: ["sekit", "enhance"],
                                           params: ["noise_estimate": "leading"], parent: mix)
        let scoreMCRA = try catalog.beginRun(kind: .score, name: "wiener", commandLine: ["sekit", "score"], params: ["jobs": "8"],
                                             parent: mcra)
        let scoreLeading = try catalog.beginRun(kind: .score, name: "wiener-leading", commandLine: ["sekit", "score"], parent: leading)
        return Chains(catalog: catalog, mix: mix, mcra: mcra, leading: leading, scoreMCRA: scoreMCRA, scoreLeading: scoreLeading)
    }

    static func ids(_ catalog: Catalog, _ filter: String) throws -> Set<RunID> { Set(try catalog.runs(filter: filter).map(\.id)) }

    @Test func lineageParamsReachEveryAncestor() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let c = try Self.chains(folder)
        #expect(try Self.ids(c.catalog, "kind = 'score' and params.noise_estimate = 'mcra'").isEmpty, "the parameter is the parent's")
        #expect(try Self.ids(c.catalog, "kind = 'score' and lineage.params.noise_estimate = 'mcra'") == [c.scoreMCRA])
        #expect(try Self.ids(c.catalog, "lineage.params.noise_estimate = 'mcra'") == [c.mcra, c.scoreMCRA], "the run itself counts")
        let scores: Set<RunID> = [c.scoreMCRA, c.scoreLeading]
        #expect(try Self.ids(c.catalog, "kind = 'score' and lineage.params.seed = 1") == scores, "two generations up")
        #expect(try Self.ids(c.catalog, "kind = 'score' and lineage.params.noise_estimate like 'lead%'") == [c.scoreLeading])
        #expect(try Self.ids(c.catalog, "kind = 'score' and lineage.params.noise_estimate in ('x', 'leading')") == [c.scoreLeading])
        #expect(try Self.ids(c.catalog, "kind = 'score' and lineage.params.jobs > 6") == [c.scoreMCRA], "numbers compare as numbers")
        #expect(try Self.ids(c.catalog, "kind = 'score' and lineage.params.jobs = 4") == scores, "any run of the lineage")
        #expect(try Self.ids(c.catalog, "lineage.params.noise_estimate is null") == [c.mix])
        #expect(try Self.ids(c.catalog, "kind = 'score' and not (lineage.params.noise_estimate = 'mcra')") == [c.scoreLeading])
        // Sorting takes the nearest value: the score run's own jobs (8) before its mix run's (4).
        var csv = ""
        try c.catalog.exportRuns(filter: "kind = 'score'", orderBy: "lineage.params.jobs desc", format: .csv) { csv += $0 }
        let rows = csv.split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.map { $0[0] } == [c.scoreMCRA.rawValue, c.scoreLeading.rawValue] && rows.map { $0[7] } == ["8", "4"], "\(csv)")
    }

    /// Issue 40 item 18: `lineage.params.seed` shows the nearest seed (a training run's) and hides
    /// the mix's; `lineage.KIND.KEY` names the run kind, as `runs diff` names differences.
    @Test func lineageParamsByRunKind() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let c = try Self.chains(folder)
        let train = try c.catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py"], params: ["seed": "7"], parent: c.mix)
        let score = try c.catalog.beginRun(kind: .score, name: "crnn", commandLine: ["sekit", "score"], parent: train)
        #expect(try Self.ids(c.catalog, "kind = 'score' and lineage.mix.seed = 1") == [c.scoreMCRA, c.scoreLeading, score])
        #expect(try Self.ids(c.catalog, "lineage.train.seed = 7") == [train, score])
        #expect(try Self.ids(c.catalog, "lineage.train.seed = 1").isEmpty, "the mix's seed is not the training run's")
        #expect(try Self.ids(c.catalog, "kind = 'score' and lineage.enhance.noise_estimate is null") == [score])
        #expect(try Self.ids(c.catalog, "lineage.mix.seed in (1, 2) and kind = 'train'") == [train])
        var csv = ""
        try c.catalog.exportRuns(filter: "id = '\(score.rawValue)'", columns: "lineage.params.seed,lineage.mix.seed",
                                 format: .csv) { csv += $0 }
        #expect(csv.split(separator: "\n").last?.contains(",7,1,") == true, "nearest seed 7, the mix's 1: \(csv)")
        do {
            _ = try c.catalog.runs(filter: "lineage.mixes.seed = 1")
            Issue.record("an unknown run kind was accepted")
        } catch {
            #expect("\(error)".contains("'mixes'") && "\(error)".contains("lineage.KIND.KEY"), "\(error)")
        }
    }

    @Test func lineageOfClipsIsTheirRunsLineage() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let c = try Self.chains(folder)
        _ = try c.catalog.insertClips([CatalogTestSupport.clip(c.mix, index: 0)])
        var csv = ""
        #expect(try c.catalog.exportClips(filter: "lineage.params.seed = 1", format: .csv) { csv += $0 } == 1)
        #expect(try c.catalog.exportClips(filter: "lineage.params.seed = 2", format: .csv) { _ in } == 0)
    }

    @Test func tagsAndPerStepMetricsFilterSortAndShowAsColumns() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        var runs: [RunID] = []
        for (index, lr) in ["0.001", "0.01"].enumerated() {
            let run = try catalog.beginRun(kind: .train, name: "crnn-\(index)", commandLine: ["train.py"], params: ["lr": lr],
                                           tags: ["stage": index == 0 ? "candidate" : "draft"])
            let entries = (0..<5).map { RunLogEntry(step: $0, metrics: ["valid_stoi": 0.5 + Double($0 * (index + 1)) / 32]) }
            _ = try catalog.log(entries, to: run)
            runs.append(run)
        }
        #expect(try Self.ids(catalog, "metrics.valid_stoi.last > 0.7") == [runs[1]])
        #expect(try Self.ids(catalog, "metrics.valid_stoi.first = 0.5 and metrics.valid_stoi.steps = 5") == Set(runs))
        #expect(try Self.ids(catalog, "metrics.valid_stoi.max >= 0.75 and metrics.valid_stoi.min < 0.51") == [runs[1]])
        #expect(try Self.ids(catalog, "tags.stage = 'candidate'") == [runs[0]])
        #expect(try Self.ids(catalog, "metrics.loss.last is null") == Set(runs))
        var csv = ""
        try catalog.exportRuns(filter: nil, orderBy: "metrics.valid_stoi.last desc",
                               columns: "params.lr,metrics.valid_stoi.last,tags.stage", format: .csv) { csv += $0 }
        let lines = csv.split(separator: "\n").map(String.init)
        #expect(lines[0] == "id,kind,name,status,started_at,finished_at,clips,params.lr,metrics.valid_stoi.last,tags.stage,command_line")
        #expect(lines[1].hasPrefix(runs[1].rawValue) && lines[1].contains(",0.01,0.75,draft,"), "\(csv)")
        #expect(lines[2].contains(",0.001,0.625,candidate,"), "\(csv)")
        // A direction belongs to --order-by, not --columns; unknown fields name the known ones.
        #expect(throws: CatalogError.self) { try catalog.exportRuns(filter: nil, columns: "params.lr desc", format: .csv) { _ in } }
        let unknown = #expect(throws: CatalogError.self) { _ = try catalog.runs(filter: "metrics.loss.median > 1") }
        #expect("\(unknown!)".contains("last") && "\(unknown!)".contains("ci95_low"), "\(unknown!)")
        #expect(throws: CatalogError.self) { _ = try catalog.runs(filter: "lineage.seed = 1") }
    }
}
