import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `datasets/recipes/urgent2025.yaml` reproduces the URGENT distributions: over 10,000 planned
/// clips every drawn frequency is within ±1 percentage point of its configured probability, and on
/// a rendered subset every realised SNR is within 0.01 dB of its draw.
@Suite(.needsFixtures)
struct URGENTRecipeTests {
    static let recipe = TestProject.root.appendingPathComponent("datasets/recipes/urgent2025.yaml")

    func options(_ overrides: [String: [String]]) throws -> (MixOptions, MixInputs) {
        var values = try MixSettings.loadRecipe(Self.recipe)
        values.merge(overrides) { $1 }
        return try MixSettings.parse(values)
    }

    @Test func tenThousandPlannedClipsMatchTheConfiguredProbabilities() throws {
        let (o, _) = try options(["count": ["10000"]])
        let source = { (kind: MixSource.Kind, name: String) in
            MixSource(kind: kind, path: name, key: name, frames: 480_000, sampleRate: 48000)
        }
        let planner = try MixPlanner(options: o, speech: [source(.speech, "s")], noise: [source(.noise, "n")],
                                     rirs: [source(.rir, "r")])
        let n = 10_000
        var reverberated = 0, windy = 0, byCount = [Int](repeating: 0, count: 5), byStage: [Degradation.Stage: Int] = [:]
        var rates: [Int: Int] = [:], bandwidthClips = 0
        for i in 0..<n {
            let plan = planner.plan(index: i)
            if plan.rir != nil { reverberated += 1 }
            if let wind = plan.wind {
                windy += 1
                #expect((-10...15).contains(wind.snrDB))
            } else {
                #expect((-5...20).contains(plan.snrDB))
            }
            let drawn = plan.degradations ?? []
            byCount[drawn.count] += 1
            #expect(Set(drawn.map(\.stage)).count == drawn.count, "no kind twice")
            for d in drawn {
                byStage[d.stage, default: 0] += 1
                if let rate = d.bandwidthRateHz { rates[rate, default: 0] += 1; bandwidthClips += 1 }
                if let low = d.clipQuantileLow, let high = d.clipQuantileHigh {
                    #expect((0...0.1).contains(low) && (0.9...1).contains(high))
                }
                if let loss = d.packetLoss { #expect((0.05...0.25).contains(loss) && d.packetMs == 20) }
            }
        }
        func within(_ count: Int, of total: Int, _ p: Double, _ what: String) {
            let f = Double(count) / Double(total)
            #expect(abs(f - p) <= 0.01, "\(what): \(f), configured \(p)")
        }
        within(reverberated, of: n, 0.5, "reverberation")
        within(windy, of: n, 0.05, "wind")
        for (count, p) in [(0, 0.25), (1, 0.40), (2, 0.20), (3, 0.15)] { within(byCount[count], of: n, p, "\(count) degradations") }
        #expect(byCount[4] == 0)
        // Kinds uniformly: each of the four is in E[count]/4 = 1.25/4 of the clips.
        for stage in Degradation.Stage.allCases { within(byStage[stage] ?? 0, of: n, 1.25 / 4, "\(stage)") }
        // All six rates are below 48 kHz: each is a sixth of the band-limited clips.
        #expect(rates.count == 6)
        for (rate, count) in rates { within(count, of: bandwidthClips, 1.0 / 6, "\(rate) Hz") }
    }

    @Test func renderedClipsRealiseTheirDrawnSNR() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        // Short clips of the fixtures (and RIRs no longer than them), so that the debug build renders them quickly.
        let (o, inputs) = try options([
            "count": ["16"], "seconds": ["1.5"], "speech": [Fixtures.url("speech").path], "noise": [Fixtures.url("noise").path],
            "rir": [Fixtures.url("rir/small_room.wav").path, Fixtures.url("rir/rir_clap.wav").path],
        ])
        let result = try MixRun.prepare(options: o, inputs: inputs, output: folder.url, jobs: 2).run()
        #expect(result.records.count == 16 && result.failures.isEmpty)
        for record in result.records {
            #expect(abs(record.snrDBRealised - record.snrDBRequested) < 0.01, "\(record.clipID)")
        }
    }
}
