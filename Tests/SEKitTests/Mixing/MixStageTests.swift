import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The mixer's stage pipeline: stages added later draw from their own streams, so the corpora
/// existing options and seeds produce do not change.
@Suite struct MixStageRandomTests {
    @Test func streamsDependOnSeedClipAndStageName() {
        var a = MixStageRandom.generator(seed: 7, clipIndex: 3, stage: "codec")
        var same = MixStageRandom.generator(seed: 7, clipIndex: 3, stage: "codec")
        #expect(a.next() == same.next())
        let others = [MixStageRandom.generator(seed: 8, clipIndex: 3, stage: "codec"),
                      MixStageRandom.generator(seed: 7, clipIndex: 4, stage: "codec"),
                      MixStageRandom.generator(seed: 7, clipIndex: 3, stage: "packet-loss")]
        var firsts = Set<UInt64>()
        for var g in others + [MixStageRandom.generator(seed: 7, clipIndex: 3, stage: "codec")] { firsts.insert(g.next()) }
        #expect(firsts.count == 4)
    }

    @Test func stageStreamIdsNeverMeetThePlannersOwnStreams() {
        for name in ["reverberation", "lowpass", "codec", "", "x"] {
            #expect(MixStageRandom.streamID(name) >= 1 << 63)
        }
        #expect(MixStageRandom.streamID("codec") != MixStageRandom.streamID("codex"))
    }
}

@Suite(.needsFixtures)
struct MixStageTests {
    /// A stage that draws from its own stream: flips the clean target's polarity on about half
    /// the clips (the target is not part of any level or SNR measurement).
    struct PolarityStage: MixStage {
        let name = "test-polarity"
        let point = MixStagePoint.signals
        func apply(to signals: inout ClipSignals, plan: ClipPlan, context: MixStageContext) throws {
            var random = MixStageRandom.generator(seed: context.options.seed, clipIndex: plan.index, stage: name)
            if random.nextUnitInterval() < 0.5 {
                signals.clean = signals.clean.map { -$0 }
                signals.cleanIsSeparate = true
            }
        }
    }

    @Test func anAddedStageChangesNothingButWhatItDoes() throws {
        var options = MixOptions()
        options.count = 8; options.seconds = 1; options.seed = 4; options.lowpassHz = .uniform(low: 2000, high: 6000)
        options.rirProbability = 0.5
        let speech = try SourceDiscovery.files(in: Fixtures.url("speech").path, option: "speech").prefix(4)
        let noise = try SourceDiscovery.files(in: Fixtures.url("noise").path, option: "noise").prefix(3)
        let rir = Fixtures.url("rir/small_room.wav").path
        func sources(_ list: some Sequence<(path: String, key: String)>, _ kind: MixSource.Kind) throws -> [MixSource] {
            try list.map { item in
                let buffer = try AudioFile.read(at: URL(fileURLWithPath: item.path))
                return MixSource(kind: kind, path: item.path, key: item.key, frames: buffer.count, sampleRate: buffer.sampleRate)
            }
        }
        let planner = try MixPlanner(options: options, speech: try sources(speech, .speech), noise: try sources(noise, .noise),
                                     rirs: try sources([(rir, "rir/small_room.wav")], .rir))
        let plain = MixRenderer(planner: planner)
        let extended = MixRenderer(planner: planner, stages: MixPipeline.stages(for: options) + [PolarityStage()])
        var flipped = 0
        for index in 0..<options.count! {
            let a = try plain.render(index: index), b = try extended.render(index: index)
            #expect(a.plan == b.plan, "the plan's draws do not depend on the stages")
            let sameMixture = a.noisy == b.noisy && a.noise == b.noise && a.speechGain == b.speechGain
                && a.noiseGains == b.noiseGains && a.clippingScale == b.clippingScale && a.snrDBRealised == b.snrDBRealised
            #expect(sameMixture, "clip \(index): the mixture does not depend on a stage that leaves it alone")
            if a.clean != b.clean {
                flipped += 1
                #expect(a.clean == b.clean.map { -$0 }, "clip \(index): the stage flips the target and does nothing else")
            }
        }
        #expect(flipped > 0 && flipped < options.count!)
    }
}
