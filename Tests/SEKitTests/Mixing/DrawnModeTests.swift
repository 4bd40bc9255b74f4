import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The URGENT-style degradation settings: counts with weights, band limits by rate with a drawn
/// resampler quality, clipping between drawn quantiles.
@Suite struct DrawnModeTests {
    func parse(_ extra: [String: String]) throws -> MixOptions {
        var values: [String: [String]] = ["speech": ["s"], "noise": ["n"], "count": ["10"]]
        for (key, value) in extra { values[key] = [value] }
        return try MixSettings.parse(values).0
    }

    func reason(_ extra: [String: String]) -> String {
        do { _ = try parse(extra) } catch { return "\(error)" }
        return "accepted"
    }

    @Test func countsWithWeightsAreTheSameDrawsAsCountProbabilityPairs() throws {
        let stages = ["bandwidth-hz": "4000", "codec": "mp3", "packet-loss": "0.1", "clip-distortion": "0.3"]
        let weighted = try parse(stages.merging(["degradations-per-clip": "0:3",
                                                 "degradations-per-clip-weights": "0.25,0.40,0.20,0.15"]) { $1 })
        let pairs = try parse(stages.merging(["degradations-per-clip": "0:0.25,1:0.4,2:0.2,3:0.15"]) { $1 })
        #expect(weighted == pairs)
        let bad: [(String, String, String)] = [
            ("0:3", "0.25,0.40,0.20", "gives 3 weights for the 4 counts"),
            ("0:3", "0.25,0.40,0.20,0.20", "weights sum to 1.05, not 1"),
            ("1:2", "0.5,x", "'x' is not a weight"),
        ]
        for (counts, weights, message) in bad {
            let text = reason(stages.merging(["degradations-per-clip": counts, "degradations-per-clip-weights": weights]) { $1 })
            #expect(text.contains("degradations-per-clip-weights") && text.contains(message), "\(text)")
        }
        #expect(reason(stages.merging(["degradations-per-clip": "0:3"]) { $1 }).contains("needs --degradations-per-clip-weights"))
        #expect(reason(stages.merging(["degradations-per-clip-weights": "1"]) { $1 }).contains("has no effect without"))
    }

    @Test func bandwidthRatesDrawARateBelowTheCorpusRateAndAQuality() throws {
        let o = try parse(["bandwidth-rates": "8000,16000,22050,24000,32000,44100", "sample-rate": "24000"])
        var rates: [Int: Int] = [:], qualities: [Resampler.Quality: Int] = [:]
        for i in 0..<3000 {
            let d = try #require(DegradationDraws.draw(options: o, clipIndex: i, length: 100)?.first)
            #expect(d.stage == .bandwidth && d.bandwidthHz == nil && d.targetBandwidth == .full)
            rates[d.bandwidthRateHz!, default: 0] += 1
            qualities[d.resamplerQuality!, default: 0] += 1
        }
        #expect(Set(rates.keys) == [8000, 16000, 22050])
        #expect(rates.values.allSatisfy { abs(Double($0) / 3000 - 1.0 / 3) < 0.03 })
        #expect(qualities.count == 3 && qualities.values.allSatisfy { abs(Double($0) / 3000 - 1.0 / 3) < 0.03 })
        #expect(reason(["bandwidth-rates": "16000,22050"]).contains("no rate is below the corpus rate 16000 Hz"))
        #expect(reason(["bandwidth-rates": "8000", "bandwidth-hz": "3000"]).contains("not both"))
    }

    @Test func aRateLimitRemovesTheBandAboveHalfTheRate() throws {
        let rate = 16000
        let tone = (0..<rate).map { Float(0.3 * sin(2 * Double.pi * 6000 * Double($0) / Double(rate))) }
        var d = Degradation(stage: .bandwidth)
        d.bandwidthRateHz = 8000; d.resamplerQuality = .medium
        var o = MixOptions()
        o.bandwidthRates = [8000]; o.count = 1
        var signals = ClipSignals(mixtureSpeech: [], clean: [], noises: [], cleanIsSeparate: false)
        signals.noisy = tone
        let planner = try MixPlanner(options: o, speech: [MixSource(kind: .speech, path: "s", key: "s", frames: rate, sampleRate: rate)],
                                     noise: [MixSource(kind: .noise, path: "n", key: "n", frames: rate, sampleRate: rate)], rirs: [])
        let context = MixStageContext(planner: planner, sources: SourceCache(sampleRate: rate, capacityBytes: 1 << 20))
        _ = try BandwidthStage().apply(d, to: &signals, context: context)
        // Away from the ends (where the tone starts and stops abruptly), nothing of it is left.
        let middle = Array(signals.noisy[2000..<14000])
        #expect(Levels.rmsDBFS(middle) < -80, "a 6 kHz tone above the 4 kHz band edge is gone: \(Levels.rmsDBFS(middle)) dBFS")
    }

    @Test func clipQuantilesClipBetweenTheDrawnQuantiles() throws {
        let o = try parse(["clip-quantiles": "0:0.1,0.9:1"])
        var signals = ClipSignals(mixtureSpeech: [], clean: [], noises: [], cleanIsSeparate: false)
        var generator = SplitMix64(seed: 5)
        signals.noisy = (0..<10001).map { _ in Float(generator.nextUnitInterval() * 2 - 1) }
        let d = try #require(DegradationDraws.draw(options: o, clipIndex: 3, length: 10001)?.first)
        let low = try #require(d.clipQuantileLow), high = try #require(d.clipQuantileHigh)
        #expect((0...0.1).contains(low) && (0.9...1).contains(high) && d.clipDistortion == nil)
        let planner = try MixPlanner(options: o, speech: [MixSource(kind: .speech, path: "s", key: "s", frames: 16000, sampleRate: 16000)],
                                     noise: [MixSource(kind: .noise, path: "n", key: "n", frames: 16000, sampleRate: 16000)], rirs: [])
        let context = MixStageContext(planner: planner, sources: SourceCache(sampleRate: 16000, capacityBytes: 1 << 20))
        let realised = try ClipDistortionStage().apply(d, to: &signals, context: context)
        let expected = low + (1 - high)
        #expect(abs(realised.clippedFraction! - expected) < 0.002, "clipped \(realised.clippedFraction!), quantiles \(low) \(high)")
        #expect(ClipDistortionStage.quantile([0, 1, 2, 3], 0.5) == 1.5)
        #expect(reason(["clip-quantiles": "0.2,0.1"]).contains("every lower one below every upper one"))
        #expect(reason(["clip-quantiles": "0.1,0.9", "clip-distortion": "0.5"]).contains("not both"))
    }
}
