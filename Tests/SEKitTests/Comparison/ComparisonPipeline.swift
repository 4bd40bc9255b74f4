import Foundation
@testable import SEKit
@testable import SEKitSignal

/// A catalogue made by the real pipeline for the comparison tests: 36 clips mixed from the
/// fixtures' speech and noise (SNR -5, 0, 5 dB; train and test splits), the oracle ratio mask
/// resynthesised, and score runs `noisy` (the noisy input), `oracle-irm`, `oracle-test` (the
/// oracle on the test split only), `oracle-by-folder` (the oracle paired by file name with the
/// corpus's clean folder: another corpus as far as pairing goes) and `oracle-jitter` (the oracle's scores plus uniform noise in
/// ±5e-4: a run that differs by noise only).
final class ComparisonPipeline: Sendable {
    /// Made on first use, shared by the suites that read it.
    static let shared = Result { try ComparisonPipeline() }

    let folder: TemporaryFolder
    let catalog: Catalog
    let mixRun: RunID

    init() throws {
        folder = try TemporaryFolder()
        catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        let speech = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("speech").path)
            .filter { $0.hasSuffix(".wav") }.sorted().map { Fixtures.url("speech/\($0)").path }
        let noise = ["doing_the_dishes.wav", "exercise_bike.wav", "running_tap.wav"].map { Fixtures.url("noise/\($0)").path }
        var options = MixOptions()
        options.count = 36; options.seconds = 1.5; options.snrDB = .list([-5, 0, 5]); options.seed = 7
        options.split = try SplitSpec(parsing: "train=0.5,test=0.5")
        let corpus = folder.file("corpus")
        let context = RunContext(catalog: catalog, commandLine: ["sekit", "mix"])
        var request = MixJob.Request(options: options, inputs: MixInputs(speech: speech, noise: noise), output: corpus)
        request.jobs = 2
        let (_, mix) = try MixJob.run(request, context: context)
        mixRun = mix.id!
        var features = FeatureExportOptions()
        features.targets = [.irm]
        _ = try FeaturesJob.run(.init(corpus: corpus, output: folder.file("f.h5"), options: features),
                                     context: RunContext(catalog: catalog, commandLine: ["sekit", "features"]))
        _ = try SynthesizeJob.run(.init(features: folder.file("f.h5"), predictions: nil, dataset: "irm", corpus: corpus,
                                            output: folder.file("oracle"), options: .init()),
                                            context: RunContext(catalog: catalog, commandLine: ["sekit", "synthesize"]))
        let metrics: [Metric] = [.snr, .sisdr, .stoi]
        for (name, enhanced, split) in [("noisy", nil, nil), ("oracle-irm", folder.file("oracle"), nil),
                                        ("oracle-test", folder.file("oracle"), "test")] as [(String, URL?, String?)] {
            var request = ScoreJob.Request(pairing: .corpus(corpus, enhanced: enhanced, split: split), metrics: metrics, checkpoint: name)
            request.jobs = 2
            _ = try ScoreJob.run(request, context: RunContext(catalog: catalog, commandLine: ["sekit", "score", name]))
        }
        // The oracle output scored against the corpus's clean folder by file name: another "corpus".
        var byFolder = ScoreJob.Request(pairing: .folders(reference: folder.file("corpus/clean"), enhanced: folder.file("oracle"),
                                                          noisy: nil),
                                        metrics: [.sisdr], checkpoint: "oracle-by-folder")
        byFolder.jobs = 2
        _ = try ScoreJob.run(byFolder, context: RunContext(catalog: catalog, commandLine: ["sekit", "score", "folders"]))
        try Self.recordJitteredCopy(of: "oracle-irm", as: "oracle-jitter", in: catalog, amplitude: 5e-4, seed: 3)
    }

    /// Records a score run holding `source`'s clip scores plus uniform noise in ±`amplitude`
    /// (seeded) and `shift(metric)`, with its aggregates: a run that differs from `source` by noise
    /// only, or by a known amount. Its parent is `parent`, else `source`'s.
    @discardableResult
    static func recordJitteredCopy(of source: String, as name: String, in catalog: Catalog, amplitude: Double, seed: UInt64,
                                   shift: (String) -> Double = { _ in 0 }, parent: RunID? = nil) throws -> RunID {
        let original = try catalog.resolveRun(source)
        let scores = try RunScores.load(of: original, from: catalog)
        let id = try catalog.beginRun(kind: .score, name: name, commandLine: ["test"], params: try catalog.paramValues(of: original.id),
                                      parent: parent ?? original.parentID)
        try CatalogTestSupport.copyScoreTarget(of: original.id, to: id, enhancedBy: parent, in: catalog)
        var generator = SplitMix(seed: seed)
        var rows: [ClipScoreRecord] = []
        var series: [String: [Double]] = [:]
        for metric in scores.metrics {
            for (clip, value) in scores.values[metric]!.enumerated() {
                guard let value else { continue }
                let jittered = value + amplitude * (2 * generator.unit() - 1) + shift(metric)
                rows.append(ClipScoreRecord(runID: id, clipID: scores.clipIDs[clip], metric: metric, value: jittered))
                series[metric, default: []].append(jittered)
            }
        }
        try catalog.insertClipScores(rows)
        try catalog.insertRunMetrics(series.map { metric, values in
            let s = Summary(values: values)
            return RunMetricRecord(runID: id, metric: metric, mean: s.mean, std: s.std, ci95Low: s.ci95Low, ci95High: s.ci95High, n: s.n)
        })
        try catalog.finishRun(id)
        return id
    }

    deinit { folder.cleanup() }
}

/// A small deterministic generator for the jitter (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func unit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}


