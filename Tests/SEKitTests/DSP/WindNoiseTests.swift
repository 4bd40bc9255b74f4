import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Wind noise (``WindNoise``): deterministic, low-pass, gusty, and a mix stage at its own SNR.
struct WindNoiseTests {
    @Test func windNoiseIsDeterministicLowPassAndGusty() {
        let rate = 16000
        let parameters = WindNoise.parameters(seed: 7)
        #expect(WindNoise.gustinessRange.contains(parameters.gustiness))
        #expect(parameters.speedsMetresPerSecond.count == Int(1.5 * parameters.gustiness))
        let x = WindNoise.generate(count: 10 * rate, sampleRate: rate, parameters: parameters)
        #expect(x == WindNoise.generate(count: 10 * rate, sampleRate: rate, parameters: WindNoise.parameters(seed: 7)))
        #expect(x != WindNoise.generate(count: 10 * rate, sampleRate: rate, parameters: WindNoise.parameters(seed: 8)))
        let energy = x.reduce(0) { $0 + $1 * $1 }
        #expect(abs(energy / Double(x.count) - 1) < 1e-9, "unit RMS")
        // Low-pass: the first difference keeps little of the energy (white noise keeps twice its energy).
        let difference = zip(x.dropFirst(), x).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        #expect(difference / energy < 0.05, "difference energy ratio \(difference / energy)")
        // Gusty: 100 ms frame levels vary by more than 6 dB over the signal.
        let frames = stride(from: 0, to: x.count, by: rate / 10).map { start in
            x[start..<min(x.count, start + rate / 10)].reduce(0) { $0 + $1 * $1 }
        }
        #expect(10 * log10(frames.max()! / frames.min()!) > 6)
        let noise = NoiseGenerator.generate(.wind, count: rate, sampleRate: rate, rmsDBFS: -30, seed: 7)
        #expect(abs(Levels.rmsDBFS(noise) + 30) < 0.01)
    }

    @Test func windReplacesTheNoiseOfAClipWithItsOwnProbabilityAndSNR() throws {
        var o = MixOptions()
        o.count = 10_000; o.windProbability = 0.05
        let speech = [MixSource(kind: .speech, path: "s", key: "s", frames: 64000, sampleRate: 16000)]
        let noise = [MixSource(kind: .noise, path: "n", key: "n", frames: 64000, sampleRate: 16000)]
        let planner = try MixPlanner(options: o, speech: speech, noise: noise, rirs: [])
        var without = o
        without.windProbability = nil
        let plain = try MixPlanner(options: without, speech: speech, noise: noise, rirs: [])
        var windy = 0
        for i in 0..<o.count! {
            let plan = planner.plan(index: i), other = plain.plan(index: i)
            if let wind = plan.wind {
                windy += 1
                #expect(plan.noises.isEmpty && plan.snrDB == wind.snrDB && (-10...15).contains(wind.snrDB))
                #expect(plan.speech == other.speech && plan.levelDBFS == other.levelDBFS, "other draws are unchanged")
            } else {
                #expect(plan == other)
            }
        }
        #expect(abs(Double(windy) / 10_000 - 0.05) < 0.01)
        var bad = o
        bad.windProbability = nil; bad.windSNRDB = .list([0])
        #expect(throws: MixError.self) { try bad.validate() }
    }
}

@Suite(.needsFixtures)
struct WindMixTests {
    @Test func windClipsAreMixedAtTheirDrawnSNR() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var o = MixOptions()
        o.count = 4; o.seconds = 2; o.windProbability = 1; o.windSNRDB = .uniform(low: -10, high: 15); o.seed = 2
        let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path], rir: [])
        let result = try MixRun.prepare(options: o, inputs: inputs, output: folder.url, jobs: 2).run()
        for record in result.records {
            let wind = try #require(record.wind)
            #expect(record.noiseSources.isEmpty && record.snrDBRequested == wind.snrDB)
            #expect(abs(record.snrDBRealised - wind.snrDB) < 0.01)
            #expect(wind.gustiness == WindNoise.parameters(seed: wind.seed).gustiness)
        }
    }
}
