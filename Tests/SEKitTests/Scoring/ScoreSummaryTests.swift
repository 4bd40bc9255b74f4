import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct ScoreSummaryTests {
    /// A scored clip: `stoi` of the enhanced output and, when given, of the noisy input.
    static func clip(_ id: String, snrDB: Double?, split: String?, stoi: Double, noisy: Double? = nil,
                     error: String? = nil) -> ClipScores {
        let pair = ScorePair(clipID: id, reference: URL(fileURLWithPath: "/corpus/clean/\(id).wav"),
                             enhanced: URL(fileURLWithPath: "/enhanced/\(id).wav"), noisy: nil, split: split, snrDB: snrDB)
        return ClipScores(pair: pair, enhanced: error == nil ? [.stoi: stoi] : [:],
                          noisy: noisy.map { [.stoi: $0] } ?? [:], error: error)
    }

    static func aggregates(_ list: [ScoreAggregate], metric: String = "stoi") -> [String: ScoreAggregate] {
        Dictionary(uniqueKeysWithValues: list.filter { $0.metric == metric }.map { ($0.subset, $0) })
    }

    @Test func subsetLabelsNameTheRequestedSNR() {
        #expect(ScoreSummary.snrSubset(5) == "snr=5")
        #expect(ScoreSummary.snrSubset(-2.5) == "snr=-2.5")
        #expect(ScoreSummary.snrSubset(0) == "snr=0")
        #expect(ScoreSummary.snrSubset(-0.0) == "snr=0")
        #expect(ScoreSummary.snrSubset(5.004) == "snr=5")   // rounded to 0.01 dB
        #expect(ScoreSummary.snrSubset(7.25) == "snr=7.25")
        #expect(ScoreSummary.snrSubset(20) == "snr=20")
    }

    /// A handful of SNRs: one subset per SNR in increasing SNR order after `all`, then one per
    /// split; failed clips count nowhere; noisy and improvement series follow the same subsets.
    @Test func fewSNRsGetOneSubsetEach() throws {
        let clips = [
            Self.clip("a", snrDB: 5, split: "test", stoi: 0.9, noisy: 0.8),
            Self.clip("b", snrDB: 0, split: "train", stoi: 0.7, noisy: 0.6),
            Self.clip("c", snrDB: 5, split: "train", stoi: 0.8, noisy: 0.75),
            Self.clip("d", snrDB: -2.5, split: "test", stoi: 0.5, noisy: 0.3),
            Self.clip("e", snrDB: 0, split: "test", stoi: 0.6),
            Self.clip("f", snrDB: 10, split: "test", stoi: 0, error: "enhanced file missing"),
        ]
        let result = ScoreSummary.aggregate(clips, metrics: [.stoi])
        let stoi = result.filter { $0.metric == "stoi" }
        #expect(stoi.map(\.subset) == ["all", "snr=-2.5", "snr=0", "snr=5", "split=test", "split=train"])
        let bySubset = Self.aggregates(result)
        #expect(bySubset["all"]?.n == 5)
        #expect(bySubset["snr=5"]?.n == 2 && abs(bySubset["snr=5"]!.mean - 0.85) < 1e-12)
        #expect(bySubset["snr=0"]?.n == 2 && abs(bySubset["snr=0"]!.mean - 0.65) < 1e-12)
        #expect(bySubset["snr=-2.5"]?.n == 1 && bySubset["snr=-2.5"]?.mean == 0.5 && bySubset["snr=-2.5"]?.std == 0)
        #expect(bySubset["split=test"]?.n == 3 && bySubset["split=train"]?.n == 2)
        #expect(bySubset["snr=10"] == nil, "a failed clip makes no subset")
        // Each aggregate is the Summary of its clips' values.
        let five = Summary(values: [0.9, 0.8])
        #expect(bySubset["snr=5"]?.ci95Low == five.ci95Low && bySubset["snr=5"]?.ci95High == five.ci95High)

        let noisy = Self.aggregates(result, metric: "stoi_noisy")
        #expect(noisy["all"]?.n == 4 && noisy["snr=0"]?.n == 1 && noisy["snr=0"]?.mean == 0.6)
        let improvement = Self.aggregates(result, metric: "stoi_improvement")
        #expect(improvement["snr=-2.5"].map { abs($0.mean - 0.2) < 1e-12 } == true)
        #expect(improvement["all"]?.n == 4)
        // Within a subset: the metric, then its noisy value, then the improvement.
        #expect(result.prefix(3).map(\.metric) == ["stoi", "stoi_noisy", "stoi_improvement"])
        #expect(result.prefix(3).allSatisfy { $0.subset == "all" })
    }

    /// More than 25 distinct SNRs (continuous draws): 5 dB buckets `snr=[low,high)`, in order.
    @Test func manySNRsAreBucketedTo5dB() {
        let snrs = (0..<30).map { -7.5 + Double($0) * 0.75 }   // -7.5 ... 14.25 dB, 30 distinct values
        let clips = snrs.enumerated().map { Self.clip("c\($0.offset)", snrDB: $0.element, split: "test",
                                                      stoi: 0.5 + 0.01 * Double($0.offset)) }
        let result = ScoreSummary.aggregate(clips, metrics: [.stoi])
        #expect(result.map(\.subset) == ["all", "snr=[-10,-5)", "snr=[-5,0)", "snr=[0,5)", "snr=[5,10)", "snr=[10,15)"])
        let bySubset = Self.aggregates(result)
        #expect(bySubset["snr=[0,5)"]?.n == snrs.filter { $0 >= 0 && $0 < 5 }.count)
        #expect(bySubset["snr=[-10,-5)"]?.n == snrs.filter { $0 < -5 }.count)
        #expect(result.dropFirst().map(\.n).reduce(0, +) == 30)
    }

    /// Exactly 25 distinct SNRs still get one subset each.
    @Test func twentyFiveSNRsAreNotBucketed() {
        let clips = (0..<25).map { Self.clip("c\($0)", snrDB: Double($0), split: nil, stoi: 0.5) }
        let subsets = ScoreSummary.aggregate(clips, metrics: [.stoi]).map(\.subset)
        #expect(subsets == ["all"] + (0..<25).map { "snr=\($0)" })
    }

    /// Issue 40 item 5: the corpus's recorded rule decides, not the count: a range's six clips are
    /// banded, a list of 30 SNRs keeps one subset per value.
    @Test func theRecordedRuleDecidesBanding() {
        let few = [-3.21, -1.5, 0.4, 2.2, 7.9, 9.9].enumerated()
            .map { Self.clip("c\($0.offset)", snrDB: $0.element, split: nil, stoi: 0.5) }
        #expect(ScoreSummary.aggregate(few, metrics: [.stoi]).map(\.subset).contains("snr=-3.21"), "without a rule: the count rule")
        let banded = ScoreSummary.aggregate(few, metrics: [.stoi], snrRule: .bands5dB).map(\.subset)
        #expect(banded == ["all", "snr=[-5,0)", "snr=[0,5)", "snr=[5,10)"], "\(banded)")
        let many = (0..<30).map { Self.clip("c\($0)", snrDB: Double($0), split: nil, stoi: 0.5) }
        #expect(ScoreSummary.aggregate(many, metrics: [.stoi], snrRule: .perValue).map(\.subset) == ["all"] + (0..<30).map { "snr=\($0)" })
        #expect(SNRSubsetRule(specs: [.uniform(low: -5, high: 20)]) == .bands5dB)
        #expect(SNRSubsetRule(specs: [.list([0, 5]), .uniform(low: 3, high: 3)]) == .perValue)
        #expect(SNRSubsetRule(specs: [.list([0, 5]), .uniform(low: -10, high: 15)]) == .bands5dB, "a wind range bands too")
    }

    /// One split for every clip adds nothing beyond `all`; one split next to clips without a
    /// split gets its subset; no SNRs, no SNR subsets.
    @Test func splitSubsetsOnlyWhenTheyTellSomething() {
        let oneSplit = [Self.clip("a", snrDB: nil, split: "test", stoi: 0.5), Self.clip("b", snrDB: nil, split: "test", stoi: 0.7)]
        #expect(ScoreSummary.aggregate(oneSplit, metrics: [.stoi]).map(\.subset) == ["all"])
        let someWithout = [Self.clip("a", snrDB: nil, split: "test", stoi: 0.5), Self.clip("b", snrDB: nil, split: nil, stoi: 0.7)]
        let result = ScoreSummary.aggregate(someWithout, metrics: [.stoi])
        #expect(result.map(\.subset) == ["all", "split=test"])
        #expect(result.last?.n == 1 && result.last?.mean == 0.5)
    }

    /// Every requested metric gets its rows, in the order asked; a metric no clip has gets none.
    @Test func metricsInTheOrderAsked() {
        var a = Self.clip("a", snrDB: 5, split: nil, stoi: 0.9)
        a.enhanced[.sisdr] = 12
        let result = ScoreSummary.aggregate([a], metrics: [.sisdr, .stoi, .llr])
        #expect(result.map(\.metric) == ["sisdr", "sisdr", "stoi", "stoi"])
        #expect(result.map(\.subset) == ["all", "snr=5", "all", "snr=5"])
    }
}
