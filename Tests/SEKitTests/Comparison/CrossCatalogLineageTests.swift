import Foundation
import Testing
@testable import SEKit
@testable import SEKitCatalog
@testable import SEKitSignal

/// A corpus mixed into catalogue A and scored into catalogue B: B's score run is recognised as
/// scoring A's corpus (by the mix run the corpus records), before and after B is merged into A,
/// where the leaderboard, `best` and `diff` see one corpus and the merge makes the mix run its parent.
@Suite(.needsFixtures)
struct CrossCatalogLineageTests {
    /// Mixes `clips` one-second clips of the fixtures at 0 and 5 dB into `corpus`, recorded in `catalog`;
    /// returns the mix run.
    static func mix(clips: Int, seed: UInt64, into corpus: URL, recordedIn catalog: Catalog) throws -> RunID {
        var options = MixOptions()
        options.count = clips; options.seconds = 1; options.snrDB = .list([0, 5]); options.seed = seed
        let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise/running_tap.wav").path])
        var request = MixJob.Request(options: options, inputs: inputs, output: corpus)
        request.jobs = 2
        let (_, mix) = try MixJob.run(request, context: RunContext(catalog: catalog, commandLine: ["sekit", "mix"]))
        return try #require(mix.id)
    }

    @Test func aCorpusScoredInAnotherCatalogueIsOneCorpusBeforeAndAfterTheMerge() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let a = try Catalog.open(at: folder.file("a.sqlite")), b = try Catalog.open(at: folder.file("b.sqlite"))
        let corpus = folder.file("corpus")
        let mixRun = try Self.mix(clips: 6, seed: 3, into: corpus, recordedIn: a)
        // The corpus's noisy inputs scored as a system's outputs (values are finite), in A and in B.
        func score(_ name: String, into catalog: Catalog, enhanced: URL?) throws -> RunID {
            var request = ScoreJob.Request(pairing: .corpus(corpus, enhanced: enhanced, split: nil), metrics: [.snr, .sisdr],
                                           checkpoint: name)
            request.jobs = 2
            let context = RunContext(catalog: catalog, commandLine: ["sekit", "score", name])
            return try #require(try ScoreJob.run(request, context: context).run.id)
        }
        _ = try score("noisy", into: a, enhanced: nil)
        let inA = try score("in-a", into: a, enhanced: corpus.appendingPathComponent("noisy"))
        let inB = try score("in-b", into: b, enhanced: corpus.appendingPathComponent("noisy"))

        // One corpus by its identity, whichever catalogue recorded the run; B knows the mix run that made it.
        let identity = try #require(try CorpusIdentity.of(folder: corpus))
        let expected = ScoredCorpus(corpus: try #require(try a.corpus(identity: identity.identity)), mixRuns: [mixRun])
        #expect(expected.key == "corpus:" + identity.identity)
        #expect(try b.mixRuns(ofCorpus: identity.identity) == [mixRun])
        #expect(try a.scoredCorpus(of: a.run(inA.rawValue)) == expected)
        #expect(try b.scoredCorpus(of: b.run(inB.rawValue)) == expected, "catalogue B's run scored A's corpus")
        #expect(try b.paramValues(of: inB)["corpus_mix_runs"] == mixRun.rawValue)
        #expect(try a.paramValues(of: inA)["corpus_mix_runs"] == nil, "a run whose mix run is its parent records nothing new")

        // Its clips are recorded under the corpus's mix run, and read back by `score --from-run` as `sekit score` named them.
        let recorded = try RecordedScores.run(inB.rawValue, in: b)
        #expect(recorded.clips.map(\.pair.clipID) == (try RecordedScores.run(inA.rawValue, in: a)).clips.map(\.pair.clipID))
        #expect(recorded.clips.allSatisfy { !$0.pair.clipID.contains("/") }, "\(recorded.clips.map(\.pair.clipID))")

        _ = try a.merge([b.url])
        #expect(try a.run(inB.rawValue).parentID == mixRun, "the merge joins the run to the corpus's mix run")
        let board = try Leaderboard.make(Leaderboard.Request(corpus: mixRun.rawValue), from: a)
        #expect(Set(board.rows.filter { !$0.isReference }.map(\.name)) == ["in-a", "in-b"], "\(board.rows.map(\.name))")
        let best = try BestRun.find(BestRun.Request(metric: "snr", corpus: mixRun.rawValue, filter: "name like 'in-%'"), in: a)
        #expect(best.candidates == 2)
        let diff = try RunDiff.compute("in-a", "in-b", in: a)
        #expect(diff.paired && diff.rows.first { $0.subset == "all" }?.n == 6)
        #expect(diff.rows.contains { $0.subset == "snr=5" }, "after the merge B's scores join A's clips (SNR subsets)")
    }

    /// Enhance and features runs recorded in another catalogue than the corpus's mix run name it
    /// (`corpus_mix_runs`), and a merge makes the mix run their parent, as it does for score runs.
    @Test func enhanceAndFeaturesRunsOfAForeignCorpusJoinItsMixRunOnMerge() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let a = try Catalog.open(at: folder.file("a.sqlite")), b = try Catalog.open(at: folder.file("b.sqlite"))
        let corpus = folder.file("corpus")
        let mixRun = try Self.mix(clips: 4, seed: 5, into: corpus, recordedIn: a)
        let inB = RunContext(catalog: b, commandLine: ["sekit", "enhance"])
        let request = EnhanceJob.Request(method: .oracle(.irm), source: .corpus(corpus, split: nil), output: folder.file("irm"))
        let enhanced = try #require(try EnhanceJob.run(request, context: inB).run.id)
        let features = try #require(try FeaturesJob.run(.init(corpus: corpus, output: folder.file("f.h5"), options: FeatureExportOptions()),
                                                             context: RunContext(catalog: b, commandLine: ["sekit", "features"])).run.id)
        for run in [enhanced, features] {
            #expect(try b.paramValues(of: run)["corpus_mix_runs"] == mixRun.rawValue)
            #expect(try b.run(run.rawValue).parentID == nil)
        }
        // Recorded beside the mix, the same commands take it as parent and record nothing new.
        let inA = try #require(try EnhanceJob.run(EnhanceJob.Request(method: .oracle(.irm), source: .corpus(corpus, split: nil),
                                                                     output: folder.file("irm-a")),
                                                  context: RunContext(catalog: a, commandLine: ["sekit", "enhance"])).run.id)
        #expect(try a.run(inA.rawValue).parentID == mixRun)
        #expect(try a.paramValues(of: inA)["corpus_mix_runs"] == nil)
        _ = try a.merge([b.url])
        for run in [enhanced, features] { #expect(try a.run(run.rawValue).parentID == mixRun, "the merge joins \(run) to the mix run") }
    }
}
