import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Which degradations a clip draws, and the options' checks (no audio involved).
@Suite struct DegradationDrawTests {
    func allStages() -> MixOptions {
        var o = MixOptions()
        o.count = 10; o.bandwidthHz = .list([4000]); o.codecs = [.mp3, .opus]
        o.packetLoss = .uniform(low: 0.05, high: 0.25); o.clipDistortion = .uniform(low: 0.1, high: 0.5)
        return o
    }

    @Test func withoutDegradationOptionsPlansHaveNoDegradationsField() {
        #expect(DegradationDraws.draw(options: MixOptions(), clipIndex: 0, length: 16000) == nil)
        #expect(MixPipeline.stages(for: MixOptions()).map(\.name) == ["reverberation", "lowpass"])
    }

    @Test func eachStageAppliesWithItsOwnProbability() throws {
        var o = allStages()
        o.bandwidthProbability = 0.2; o.codecProbability = 0.5; o.packetLossProbability = 0.8
        var counts: [Degradation.Stage: Int] = [:]
        let n = 4000
        for i in 0..<n {
            let drawn = try #require(DegradationDraws.draw(options: o, clipIndex: i, length: 16000))
            #expect(drawn.map(\.stage) == Degradation.Stage.allCases.filter { drawn.map(\.stage).contains($0) }, "application order")
            for d in drawn { counts[d.stage, default: 0] += 1 }
        }
        for (stage, p) in [(Degradation.Stage.bandwidth, 0.2), (.codec, 0.5), (.packetLoss, 0.8), (.clipDistortion, 1.0)] {
            #expect(abs(Double(counts[stage] ?? 0) / Double(n) - p) < 0.03, "\(stage)")
        }
    }

    @Test func degradationsPerClipDrawsTheCountAndChoosesStagesUniformly() throws {
        var o = allStages()
        o.degradationsPerClip = try DegradationCounts(parsing: "0:0.25,1:0.4,2:0.2,3:0.15")
        var byCount = [Int](repeating: 0, count: 5)
        var byStage: [Degradation.Stage: Int] = [:]
        let n = 8000
        for i in 0..<n {
            let drawn = try #require(DegradationDraws.draw(options: o, clipIndex: i, length: 16000))
            byCount[drawn.count] += 1
            for d in drawn { byStage[d.stage, default: 0] += 1 }
        }
        for (count, p) in [(0, 0.25), (1, 0.4), (2, 0.2), (3, 0.15), (4, 0.0)] {
            #expect(abs(Double(byCount[count]) / Double(n) - p) < 0.02, "\(count) degradations")
        }
        // Expected stages per clip: 0.4·1 + 0.2·2 + 0.15·3 = 1.25, a quarter of it each.
        for stage in Degradation.Stage.allCases {
            #expect(abs(Double(byStage[stage] ?? 0) / Double(n) - 1.25 / 4) < 0.02, "\(stage)")
        }
    }

    @Test func aStagesDrawsDoNotDependOnTheOtherStages() throws {
        var alone = MixOptions()
        alone.count = 10; alone.packetLoss = .uniform(low: 0.05, high: 0.25)
        var with = allStages()
        with.codecProbability = 0.3
        for i in 0..<50 {
            let a = try #require(DegradationDraws.draw(options: alone, clipIndex: i, length: 32000)?.first)
            let b = try #require(DegradationDraws.draw(options: with, clipIndex: i, length: 32000)?.first { $0.stage == .packetLoss })
            #expect(a == b)
        }
    }

    @Test func codecSettingsAreDrawnPerCodecAndSnapped() throws {
        var o = MixOptions()
        o.count = 1; o.codecs = [.mp3, .opus, .vorbis]; o.mp3BitrateKbps = .uniform(low: 16, high: 128)
        var seen = Set<AudioCodec>()
        for i in 0..<200 {
            let d = try #require(DegradationDraws.draw(options: o, clipIndex: i, length: 16000)?.first)
            seen.insert(d.codec!)
            switch d.codec! {
            case .mp3:
                #expect(AudioCodec.mp3BitratesKbps(codingRate: 16000).contains(d.mp3BitrateKbps!) && (16...128).contains(d.mp3BitrateKbps!))
            case .opus: #expect((6...64).contains(d.opusBitrateKbps!))
            case .vorbis: #expect((0.1...0.6).contains(d.vorbisQuality!))
            default: Issue.record("unexpected codec \(d.codec!)")
            }
            #expect(d.codecRateHz == 16000)
        }
        #expect(seen.count == 3)
    }

    /// `--opus-complexity` draws after the bitrate, from the codec stage's stream: every other draw
    /// is as without it; a single value draws nothing; nothing is recorded without it.
    @Test func opusComplexityIsDrawnLastAndOnlyWhenGiven() throws {
        var plain = MixOptions()
        plain.count = 1; plain.codecs = [.mp3, .opus]; plain.codecProbability = 0.7
        plain.packetLoss = .uniform(low: 0.05, high: 0.25)
        var fixed = plain, ranged = plain
        fixed.opusComplexity = CountRange(low: 5, high: 5)
        ranged.opusComplexity = CountRange(low: 0, high: 10)
        var seen = Set<Int>()
        for i in 0..<300 {
            let a = try #require(DegradationDraws.draw(options: plain, clipIndex: i, length: 16000))
            let b = try #require(DegradationDraws.draw(options: fixed, clipIndex: i, length: 16000))
            let c = try #require(DegradationDraws.draw(options: ranged, clipIndex: i, length: 16000))
            #expect(a.allSatisfy { $0.opusComplexity == nil })
            for (others, complexity) in [(b, 5 as Int?), (c, nil)] {
                #expect(others.count == a.count)
                for (x, y) in zip(a, others) {
                    var y = y
                    if y.codec == .opus {
                        let drawn = try #require(y.opusComplexity)
                        if let complexity { #expect(drawn == complexity) } else { seen.insert(drawn) }
                    } else {
                        #expect(y.opusComplexity == nil)
                    }
                    y.opusComplexity = nil
                    #expect(x == y, "clip \(i): the other draws are unchanged")
                }
            }
        }
        #expect(seen == Set(0...10))
    }

    @Test func badSettingsNameTheFlag() {
        func failure(_ values: [String: [String]]) -> String? {
            var all = values
            all["speech"] = ["s"]; all["noise"] = ["n"]; all["count"] = ["1"]
            do { _ = try MixSettings.parse(all); return nil } catch let error as MixError {
                if case .invalidOption(let name, _, _) = error { return name }
                return "\(error)"
            } catch { return "\(error)" }
        }
        #expect(failure(["codec": ["mp3,aac"]]) == "codec")
        #expect(failure(["bandwidth-hz": ["8000"]]) == "bandwidth-hz")
        #expect(failure(["packet-loss": ["0.1:1.5"]]) == "packet-loss")
        #expect(failure(["clip-distortion": ["0:0.5"]]) == "clip-distortion")
        #expect(failure(["mp3-bitrate-kbps": ["32"]]) == "mp3-bitrate-kbps")
        #expect(failure(["codec": ["opus"], "opus-bitrate-kbps": ["2:64"]]) == "opus-bitrate-kbps")
        for bad in ["11", "0:11", "-1", "2.5", "7:3", "a", "1:2:3"] {
            #expect(failure(["codec": ["opus"], "opus-complexity": [bad]]) == "opus-complexity", "\(bad)")
        }
        #expect(failure(["codec": ["mp3"], "opus-complexity": ["5"]]) == "opus-complexity")
        #expect(failure(["codec": ["opus,mp3"], "opus-complexity": ["0:10"]]) == nil)
        #expect(failure(["codec": ["opus"], "opus-complexity": ["3"]]) == nil)
        #expect(failure(["packet-loss": ["0.1"], "degradations-per-clip": ["0:0.5,1:0.4"]]) == "degradations-per-clip")
        #expect(failure(["packet-loss": ["0.1"], "degradations-per-clip": ["0:0.5,2:0.5"]]) == "degradations-per-clip")
        #expect(failure(["packet-loss": ["0.1"], "degradations-per-clip": ["1:1"],
                         "packet-loss-probability": ["0.5"]]) == "packet-loss-probability")
        #expect(failure(["concealment": ["repeat"]]) == "concealment")
        #expect(failure(["codec": ["gsm"], "codec-probability": ["0.5"], "packet-loss": ["0.1"],
                         "degradations-per-clip": ["0:0.5,2:0.5"]]) == "codec-probability")
        #expect(failure(["codec": ["mp3,opus,vorbis,ulaw,alaw,gsm"], "packet-loss": ["0.05:0.25"], "clip-distortion": ["0.1:0.5"],
                         "degradations-per-clip": ["0:0.25,1:0.4,2:0.2,3:0.15"]]) == nil)
    }
}
