import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// A corpus of 30 clips at SNRs drawn from −5…15 dB (bucketed to 5 dB bands in the aggregates),
/// scored three times: `noisy` (the noisy input), `identity` (the noisy input as the "enhanced"
/// output) and `perfect` (the clean reference as the enhanced output: an upper bound whose SNR is +inf).
final class UpperBoundPipeline: Sendable {
    static let shared = Result { try UpperBoundPipeline() }

    let folder: TemporaryFolder
    let catalog: Catalog
    let corpus: URL

    init() throws {
        folder = try TemporaryFolder()
        catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        let speech = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("speech").path)
            .filter { $0.hasSuffix(".wav") }.sorted().map { Fixtures.url("speech/\($0)").path }
        var options = MixOptions()
        options.count = 30; options.seconds = 1; options.snrDB = .uniform(low: -5, high: 15); options.seed = 5
        corpus = folder.file("corpus")
        var mix = MixJob.Request(options: options, inputs: MixInputs(speech: speech, noise: [Fixtures.url("noise/running_tap.wav").path]),
                                 output: corpus)
        mix.jobs = 2
        _ = try MixJob.run(mix, context: RunContext(catalog: catalog, commandLine: ["sekit", "mix"]))
        for (name, enhanced) in [("noisy", nil), ("identity", corpus.appendingPathComponent("noisy")),
                                 ("perfect", corpus.appendingPathComponent("clean"))] as [(String, URL?)] {
            var request = ScoreJob.Request(pairing: .corpus(corpus, enhanced: enhanced, split: nil), metrics: [.snr, .stoi],
                                           checkpoint: name)
            request.jobs = 2
            _ = try ScoreJob.run(request, context: RunContext(catalog: catalog, commandLine: ["sekit", "score", name]))
        }
    }

    deinit { folder.cleanup() }
}

@Suite(.needsFixtures, .serialized)
struct ReportHardeningTests {
    /// Issue 26 item 1: a run with a +inf mean (the clean reference scored as the output) made the
    /// report die in its improvement charts; the chart now spans the finite values and marks the bar.
    @Test func aReportOnAnUpperBoundWithInfiniteScoresIsWritten() throws {
        let p = try UpperBoundPipeline.shared.get()
        let perfect = try p.catalog.resolveRun("perfect")
        #expect(try p.catalog.runDetails(perfect.id.rawValue).metrics.contains { $0.metric == "snr_improvement" && $0.mean == .infinity })
        let out = p.folder.file("perfect.html")
        var request = HTMLReportRequest(runs: ["perfect"], output: out)
        request.audio = .none
        let outcome = try HTMLReport.write(request, catalog: p.catalog)
        let html = try String(contentsOf: out, encoding: .utf8)
        #expect(outcome.figures > 0)
        #expect(html.contains("snr improvement (dB) by input SNR"), "no SNR chart")
        #expect(html.range(of: "=\"-?(nan|inf)", options: .regularExpression) == nil, "a coordinate that is not a number")
    }

    @Test func anInfiniteBarIsDrawnToTheEdgeAndTicksStayFinite() throws {
        let chart = ImprovementChart(metric: "snr", unit: "dB", higherIsBetter: true,
                                     bars: [.init(label: "0 dB", mean: .infinity, low: .infinity, high: .infinity, n: 3),
                                            .init(label: "5 dB", mean: 2.5, low: 1, high: 4, n: 3),
                                            .init(label: "10 dB", mean: .nan, low: nil, high: nil, n: 1)])
        let svg = try SVGFigure.element(chart.figure, cssClass: "chart")
        #expect(svg.contains(">inf<"), "the infinite bar is not labelled")
        #expect(svg.range(of: "=\"-?(nan|inf)", options: .regularExpression) == nil, "a coordinate that is not a number")
        #expect(NiceTicks.ticks(from: 0, to: .infinity, count: 5).values.isEmpty)
        #expect(NiceTicks.ticks(from: 1e16, to: 1e16 + 2, count: 5).values.count <= 12)
    }

    /// Issue 26 items 12 and 17: `runs best` keeps runs whose mean is +inf (the best SNR there is)
    /// and `snr=0` names the 5 dB band holding 0 dB; a subset that does not exist lists those that do.
    @Test func bestRankInfinityAndResolveSNRBands() throws {
        let p = try UpperBoundPipeline.shared.get()
        let best = try BestRun.find(BestRun.Request(metric: "snr_improvement"), in: p.catalog)
        #expect(best.best.name == "perfect" && best.best.mean == .infinity)
        #expect(best.candidates == 2, "identity and perfect have an improvement: \(best.candidates)")
        let worst = try BestRun.find(BestRun.Request(metric: "snr"), in: p.catalog)
        #expect(worst.candidates >= 3 && worst.best.name == "perfect")
        let band = try BestRun.find(BestRun.Request(metric: "stoi", subset: "snr=0"), in: p.catalog)
        #expect(band.subset == "snr=[0,5)", "\(band.subset)")
        #expect(band.best.mean > 0.99, "the clean reference scored as output")
        #expect(throws: ComparisonError.self) { try BestRun.find(BestRun.Request(metric: "stoi", subset: "split=test"), in: p.catalog) }
        do {
            _ = try BestRun.find(BestRun.Request(metric: "stoi", subset: "snr=99"), in: p.catalog)
            Issue.record("snr=99 resolved")
        } catch {
            #expect("\(error)".contains("snr=[0,5)") && "\(error)".contains("snr=[-5,0)"), "\(error)")
        }
        let board = try Leaderboard.make(Leaderboard.Request(corpus: "perfect", subset: "snr=5"), from: p.catalog)
        #expect(board.subset == "snr=[5,10)")
        let diff = try RunDiff.compute("identity", "perfect", request: RunDiff.Request(metrics: ["stoi"], subsets: ["snr=-2.5"]),
                                       in: p.catalog)
        #expect(diff.rows.map(\.subset) == ["snr=[-5,0)"], "\(diff.rows.map(\.subset))")
    }

    /// Issue 26 item 12: one representation per format for infinity: JSON "inf" (also in listings),
    /// CSV inf, LaTeX \infty; the leaderboard ranks and marks the +inf cell.
    @Test func infinityHasOneRepresentationPerFormat() throws {
        let p = try UpperBoundPipeline.shared.get()
        let board = try Leaderboard.make(Leaderboard.Request(corpus: "perfect", metrics: ["snr"]), from: p.catalog)
        let perfect = try #require(board.rows.first { $0.name == "perfect" })
        #expect(perfect.cells[0]?.best == true && perfect.meanRank == 1)
        #expect(try board.rendered(.latex).contains("$\\mathbf{\\infty}"))
        #expect(try board.rendered(.json).contains("\"mean\" : \"inf\""))
        #expect(try board.rendered(.csv).contains(",inf,"))
        var json = ""
        _ = try p.catalog.exportRunTable(filter: "name = 'perfect'", format: .json) { json += $0 }
        #expect(json.contains("\"metrics.snr.mean\": \"inf\""), "\(json.prefix(600))")
    }

    /// Issue 26 item 7: `report A B` shows every run asked for (an older run of a name included) and
    /// no other checkpoint, names the best by the ranks it shows, and refuses runs on other corpora.
    @Test func aComparisonShowsExactlyTheRunsAskedFor() throws {
        let p = try UpperBoundPipeline.shared.get()
        let identity = try p.catalog.resolveRun("identity"), perfect = try p.catalog.resolveRun("perfect")
        let out = p.folder.file("two.html")
        var request = HTMLReportRequest(runs: [identity.id.rawValue, perfect.id.rawValue], output: out)
        request.audio = .none
        request.worst = 0
        let outcome = try HTMLReport.write(request, catalog: p.catalog)
        let html = try String(contentsOf: out, encoding: .utf8)
        #expect(outcome.runs.count == 2)
        #expect(html.contains("Comparison of 2 score runs") && html.contains("The best run: perfect"))
        let board = try Leaderboard.make(Leaderboard.Request(corpus: "perfect", runs: [identity.id]), from: p.catalog)
        #expect(board.rows.filter { !$0.isReference }.map(\.name) == ["identity"])

        // Another corpus: a copy of the clean folder scored by file name.
        var other = ScoreJob.Request(pairing: .folders(reference: p.corpus.appendingPathComponent("clean"),
                                                       enhanced: p.corpus.appendingPathComponent("noisy"), noisy: nil),
                                     metrics: [.snr], checkpoint: "by-folder")
        other.jobs = 2
        let folderRun = try ScoreJob.run(other, context: RunContext(catalog: p.catalog, commandLine: ["sekit", "score", "folders"])).run.id!
        request.runs = [perfect.id.rawValue, folderRun.rawValue]
        do {
            _ = try HTMLReport.write(request, catalog: p.catalog)
            Issue.record("a report of runs on two corpora was written")
        } catch {
            #expect("\(error)".contains("by-folder") && "\(error)".contains("one corpus"), "\(error)")
        }
    }

    /// Issue 26 item 16: enhanced files deleted after scoring are named in a note, not silently left out.
    @Test func deletedEnhancedFilesAreNamedInTheReport() throws {
        let p = try UpperBoundPipeline.shared.get()
        let copy = p.folder.file("copy")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: p.corpus.appendingPathComponent("clean"), to: copy)
        var request = ScoreJob.Request(pairing: .corpus(p.corpus, enhanced: copy, split: nil), metrics: [.stoi], checkpoint: "deleted")
        request.jobs = 2
        _ = try ScoreJob.run(request, context: RunContext(catalog: p.catalog, commandLine: ["sekit", "score", "deleted"]))
        try FileManager.default.removeItem(at: copy)
        var report = HTMLReportRequest(runs: ["deleted"], output: p.folder.file("deleted.html"))
        report.audio = .none
        report.worst = 2
        _ = try HTMLReport.write(report, catalog: p.catalog)
        let html = try String(contentsOf: p.folder.file("deleted.html"), encoding: .utf8)
        #expect(html.contains("no longer there") && html.contains("enhanced"), "no note for the deleted files")
    }
}
