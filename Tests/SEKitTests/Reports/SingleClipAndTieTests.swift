import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Issue 26 items 14 and 18: the interval of a one-clip mean is undefined and said so in every
/// format; the leaderboard treats means equal at its printed precision as ties.
@Suite(.needsFixtures, .serialized)
struct SingleClipAndTieTests {
    /// Records a finished score run on `source`'s corpus holding only `metrics` (mean, n, interval).
    static func recordAggregates(like source: String, name: String, in catalog: Catalog,
                                 _ metrics: [(metric: String, mean: Double, n: Int, ci: (Double, Double)?)]) throws -> RunID {
        let original = try catalog.resolveRun(source)
        let id = try catalog.beginRun(kind: .score, name: name, commandLine: ["test"], params: try catalog.paramValues(of: original.id),
                                      parent: original.parentID)
        try CatalogTestSupport.copyScoreTarget(of: original.id, to: id, in: catalog)
        try catalog.insertRunMetrics(metrics.map {
            RunMetricRecord(runID: id, metric: $0.metric, mean: $0.mean, std: 0, ci95Low: $0.ci?.0, ci95High: $0.ci?.1, n: $0.n)
        })
        try catalog.finishRun(id)
        return id
    }

    @Test func meansEqualAtThePrintedPrecisionAreTies() throws {
        let p = try UpperBoundPipeline.shared.get()
        let a = try Self.recordAggregates(like: "identity", name: "tie-a", in: p.catalog, [("stoi", 0.8, 30, (0.79, 0.81))])
        let b = try Self.recordAggregates(like: "identity", name: "tie-b", in: p.catalog, [("stoi", 0.8 + 1e-9, 30, (0.79, 0.81))])
        let board = try Leaderboard.make(Leaderboard.Request(corpus: "identity", metrics: ["stoi"], runs: [a, b]), from: p.catalog)
        let rows = board.rows.filter { !$0.isReference }
        #expect(rows.count == 2)
        #expect(rows[0].meanRank == rows[1].meanRank, "\(rows.map(\.meanRank))")
        #expect(rows.allSatisfy { $0.cells[0]?.best == true }, "both print 0.800: both best")
    }

    @Test func aOneClipMeanHasNoInterval() throws {
        #expect(Summary(values: [4.25]).ci95Low.isNaN && Summary(values: [4.25]).ci95High.isNaN)
        let p = try UpperBoundPipeline.shared.get()
        // A catalogue written before: a zero-width interval stored for one clip.
        let old = try Self.recordAggregates(like: "identity", name: "one-old", in: p.catalog, [("stoi", 0.8, 1, (0.8, 0.8))])
        let board = try Leaderboard.make(Leaderboard.Request(corpus: "identity", metrics: ["stoi"], runs: [old]), from: p.catalog)
        let table = try board.rendered(.table)
        #expect(!table.contains("± 0.000") && table.contains("0.800 (n=1)"), "\(table)")
        #expect(board.rows.first { !$0.isReference }?.cells[0]?.ciHalfWidth == nil)
        let best = try BestRun.find(BestRun.Request(metric: "stoi", filter: "name = 'one-old'"), in: p.catalog)
        let bestText = try best.rendered(.table)
        #expect(best.best.ci95Low == nil && bestText.contains("95% CI undefined, n = 1"), "\(bestText)")

        // A one-clip score run as `sekit score` records it.
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        for stem in ["clean", "noisy"] {
            try FileManager.default.createDirectory(at: folder.file(stem), withIntermediateDirectories: true)
            let first = try FileManager.default.contentsOfDirectory(atPath: p.corpus.appendingPathComponent(stem).path).sorted().first!
            try FileManager.default.copyItem(at: p.corpus.appendingPathComponent("\(stem)/\(first)"), to: folder.file("\(stem)/one.wav"))
        }
        var request = ScoreJob.Request(pairing: .folders(reference: folder.file("clean"), enhanced: folder.file("noisy"), noisy: nil),
                                       metrics: [.stoi], checkpoint: "one-clip")
        request.jobs = 1
        let outcome = try ScoreJob.run(request, context: RunContext(catalog: p.catalog, commandLine: ["sekit", "score", "one"]))
        let all = try #require(outcome.summary.first { $0.metric == "stoi" && $0.subset == "all" })
        #expect(all.n == 1 && all.ci95Low == nil && all.ci95High == nil)
        let data = try ScoreReport.json(checkpoint: "one-clip", clips: outcome.clips, summary: outcome.summary, metrics: [.stoi])
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"ci95_low\" : null"), "\(json)")
        let scoreTable = ScoreReport.table(checkpoint: "one-clip", clips: outcome.clips, summary: outcome.summary, metrics: [.stoi])
        #expect(scoreTable.contains("undefined (n=1)"), "\(scoreTable)")
        let stored = try p.catalog.runDetails(outcome.run.id!.rawValue).metrics.first { $0.metric == "stoi" && $0.subset.isEmpty }
        #expect(stored?.ci95Low == nil && stored?.n == 1)
        var report = HTMLReportRequest(runs: ["one-clip"], output: folder.file("one.html"))
        report.audio = .none
        _ = try HTMLReport.write(report, catalog: p.catalog)
        let html = try String(contentsOf: folder.file("one.html"), encoding: .utf8)
        #expect(html.contains("[undefined, n = 1]"))
    }
}
