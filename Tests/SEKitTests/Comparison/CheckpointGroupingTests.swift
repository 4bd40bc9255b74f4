import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Checkpoints side by side: `runs leaderboard --group-by params.epoch` and the report's
/// checkpoint section, on the comparison pipeline's catalogue (merged into a fresh one) plus a
/// training run with three checkpoints (enhance runs recording epochs 1-3, their score runs the
/// oracle's scores shifted by known amounts) and two classical baselines.
@Suite(.needsFixtures)
struct CheckpointGroupingTests {
    /// The catalogue, its folder and the runs made: name → score run.
    struct Checkpoints {
        let folder: TemporaryFolder
        let catalog: Catalog
        let scores: [String: RunID]
        var boardRuns: [RunID] { ["crnn-epoch1", "crnn-epoch2", "crnn-epoch3", "wiener", "specsub"].map { scores[$0]! } }
    }

    /// Shifts per metric (snr, sisdr in dB; stoi): epoch 2 is best on snr and sisdr, epoch 3 on stoi.
    static let shifts: [String: [String: Double]] = [
        "crnn-epoch1": ["snr": -1, "sisdr": -1, "stoi": -0.05],
        "crnn-epoch2": ["snr": 0.5, "sisdr": 0.5, "stoi": 0.02],
        "crnn-epoch3": ["snr": -0.1, "sisdr": -0.1, "stoi": 0.05],
        "wiener": ["snr": -0.06, "sisdr": -0.06, "stoi": -0.06],
        "specsub": ["snr": -2, "sisdr": -2, "stoi": -0.1],
    ]

    static func make() throws -> Checkpoints {
        let pipeline = try ComparisonPipeline.shared.get()
        let folder = try TemporaryFolder()
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        _ = try catalog.merge([pipeline.catalog.url])
        let features = try #require(try catalog.runs(filter: "kind = 'features'").first)
        let train = try catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py"], params: ["epochs": "3"],
                                         parent: features.id)
        try catalog.finishRun(train)
        var scores: [String: RunID] = [:]
        func record(_ name: String, enhance params: [String: String], parent: RunID) throws {
            let enhance = try catalog.beginRun(kind: .enhance, name: name, commandLine: ["sekit", "enhance"], params: params,
                                               parent: parent)
            try catalog.finishRun(enhance)
            let shift = shifts[name]!
            scores[name] = try ComparisonPipeline.recordJitteredCopy(of: "oracle-irm", as: name, in: catalog, amplitude: 0, seed: 1,
                                                                     shift: { shift[$0] ?? 0 }, parent: enhance)
        }
        for epoch in 1...3 {
            try record("crnn-epoch\(epoch)", enhance: ["method": "model", "epoch": "\(epoch)"], parent: train)
        }
        try record("wiener", enhance: ["method": "wiener"], parent: pipeline.mixRun)
        try record("specsub", enhance: ["method": "specsub"], parent: pipeline.mixRun)
        return Checkpoints(folder: folder, catalog: catalog, scores: scores)
    }

    @Test func groupedRowsComeByEpochAndNameTheBestTheLastAndTheBaseline() throws {
        let c = try Self.make(); defer { c.folder.cleanup() }
        let board = try Leaderboard.make(Leaderboard.Request(corpus: c.scores["wiener"]!.rawValue, metrics: ["snr", "sisdr", "stoi"],
                                                             runs: c.boardRuns, groupBy: "params.epoch"),
                                         from: c.catalog)
        #expect(board.rows.map(\.name) == ["noisy", "crnn-epoch1", "crnn-epoch2", "crnn-epoch3", "wiener", "specsub"])
        #expect(board.rows.map(\.group) == [nil, "1", "2", "3", nil, nil])
        let grouping = try #require(board.grouping)
        #expect(grouping.key == "epoch" && grouping.bestBy == "mean_rank")
        #expect(grouping.best == c.scores["crnn-epoch2"])
        #expect(grouping.last == c.scores["crnn-epoch3"])
        #expect(grouping.baseline == c.scores["wiener"])

        let byStoi = try Leaderboard.make(Leaderboard.Request(corpus: c.scores["wiener"]!.rawValue, metrics: ["snr", "sisdr", "stoi"],
                                                              runs: c.boardRuns, groupBy: "params.epoch", bestBy: "stoi"),
                                          from: c.catalog)
        #expect(byStoi.grouping?.best == c.scores["crnn-epoch3"])
        #expect(byStoi.grouping?.baseline == c.scores["wiener"])

        let text = try board.rendered(.table)
        #expect(text.contains("epoch"))
        #expect(text.contains("2 (best)"))
        #expect(text.contains("best checkpoint (the lowest mean rank): crnn-epoch2, epoch 2"))
        #expect(text.contains("sekit runs diff \(c.scores["crnn-epoch3"]!) \(c.scores["crnn-epoch2"]!)"))
        #expect(text.contains("sekit runs diff \(c.scores["wiener"]!) \(c.scores["crnn-epoch2"]!)"))
        let csv = try board.rendered(.csv).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(csv[0].prefix(5) == ["checkpoint", "run_id", "reference", "epoch", "best_checkpoint"])
        #expect(csv[3][3] == "2" && csv[3][4] == "1" && csv[2][4] == "0" && csv[1][3] == "")
        // An ungrouped board keeps its columns (what old options produce does not change).
        let plain = try Leaderboard.make(Leaderboard.Request(corpus: c.scores["wiener"]!.rawValue, metrics: ["snr"],
                                                             runs: c.boardRuns),
                                         from: c.catalog)
        #expect(plain.grouping == nil)
        #expect(try plain.rendered(.csv).hasPrefix("checkpoint,run_id,reference,snr_mean,"))
        #expect(!(try plain.rendered(.json)).contains("grouping"))
    }

    @Test func badGroupingsAreNamedErrors() throws {
        let c = try Self.make(); defer { c.folder.cleanup() }
        let corpus = c.scores["wiener"]!.rawValue
        for (request, expected) in [
            (Leaderboard.Request(corpus: corpus, groupBy: "epoch"), "takes params.KEY"),
            (Leaderboard.Request(corpus: corpus, groupBy: "params.learning_rate"),
             "no checkpoint on this board has the parameter learning_rate"),
            (Leaderboard.Request(corpus: corpus, bestBy: "stoi"), "give --group-by too"),
            (Leaderboard.Request(corpus: corpus, groupBy: "params.epoch", bestBy: "pesq_wb"), "not on the board"),
        ] {
            #expect(throws: ComparisonError.self) { _ = try Leaderboard.make(request, from: c.catalog) }
            do { _ = try Leaderboard.make(request, from: c.catalog) } catch { #expect("\(error)".contains(expected), "\(error)") }
        }
    }

    @Test func theReportShowsEachMetricByEpochAndTestsTheBestAgainstTheLastAndTheBaseline() throws {
        let c = try Self.make(); defer { c.folder.cleanup() }
        var request = HTMLReportRequest(runs: c.boardRuns.map(\.rawValue), output: c.folder.file("report.html"))
        request.worst = 0
        request.audio = .none
        let outcome = try HTMLReport.write(request, catalog: c.catalog)
        let html = try String(contentsOf: outcome.output, encoding: .utf8)
        let section = try #require(html.range(of: "id=\"checkpoints\"")).lowerBound
        let checkpoints = String(html[section...])
        #expect(checkpoints.contains("Best by the lowest mean rank: <strong>crnn-epoch2</strong> (epoch 2)"))
        #expect(checkpoints.contains("best classical baseline: wiener"))
        // One chart per metric, each naming the best epoch.
        let charts = checkpoints.components(separatedBy: "<svg").count - 1
        #expect(charts >= 3)
        #expect(checkpoints.contains("by epoch, with 95% confidence intervals: epoch 1:"))
        #expect(checkpoints.contains("best: epoch 2"))
        #expect(checkpoints.contains("id=\"diff-last\"") && checkpoints.contains("id=\"diff-baseline\""))
        #expect(checkpoints.contains("against the last checkpoint (crnn-epoch3)"))
        #expect(checkpoints.contains("against the best classical baseline (wiener)"))
        // The leaderboard above it carries the epoch column.
        #expect(html.contains("2 (best)"))
    }
}
