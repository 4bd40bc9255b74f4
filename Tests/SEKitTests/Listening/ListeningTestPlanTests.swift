import Foundation
import Testing

@testable import SEKit
@testable import SEKitCatalog
@testable import SEKitSignal

/// The stratified clip draw of `listen make`.
@Suite struct ListeningTestPlanTests {
    func scores(_ name: String, clips: Int, snrs: [Double], missing: Set<Int> = []) -> RunScores {
        let kept = (0..<clips).filter { !missing.contains($0) }
        let run = RunRecord(
            id: RunID("run-\(name)"), kind: .score, name: name, status: .finished, startedAt: Date(), finishedAt: Date(),
            toolVersion: "t", commandLine: "t", workingDirectory: "/", host: "h", pid: 1, parentID: nil, error: nil)
        return RunScores(
            run: run, clipIDs: kept.map { String(format: "c%03d", $0) }, values: [:], noisyValues: [:],
            snrDB: kept.map { snrs[$0 % snrs.count] }, split: kept.map { _ in nil }, metrics: [])
    }

    @Test func strataAreBalancedAndTheDrawIsSeeded() throws {
        let a = scores("a", clips: 60, snrs: [-5, 0, 5, 10])
        let b = scores("b", clips: 60, snrs: [-5, 0, 5, 10], missing: [1, 2, 3])
        let plan = try ListeningTestPlan.draw(from: [a, b], count: 8, seed: 3)
        #expect(plan.clips.count == 8)
        #expect(
            Dictionary(grouping: plan.clips, by: \.stratum).mapValues(\.count) == [
                "snr=-5.0": 2, "snr=0.0": 2, "snr=5.0": 2, "snr=10.0": 2,
            ])
        #expect(!plan.clips.contains { ["c001", "c002", "c003"].contains($0.id) }, "only clips both runs scored")
        #expect(plan.clips.map(\.id) == plan.clips.map(\.id).sorted())
        #expect(try ListeningTestPlan.draw(from: [a, b], count: 8, seed: 3) == plan)
        #expect(try ListeningTestPlan.draw(from: [a, b], count: 8, seed: 4) != plan)
        // Ten clips over four strata: two strata give three.
        let ten = try ListeningTestPlan.draw(from: [a], count: 10, seed: 0)
        #expect(Dictionary(grouping: ten.clips, by: \.stratum).values.map(\.count).sorted() == [2, 2, 3, 3])
        #expect(throws: ListenError.self) { try ListeningTestPlan.draw(from: [a, b], count: 58, seed: 0) }
    }

    /// Issue 40 item 4: a small test set mixed with a continuous SNR (one stratum per clip) once gave the
    /// five lowest-SNR clips whatever the seed. The seed now chooses; each draw is still reproducible.
    @Test func theSeedChoosesWhenStrataOutnumberTheClips() throws {
        let snrs = (0..<20).map { -4.9 + 0.74 * Double($0) }
        let run = scores("continuous", clips: 20, snrs: snrs)
        let draws = try [0, 7, 99].map { try ListeningTestPlan.draw(from: [run], count: 5, seed: $0).clips.map(\.id) }
        #expect(Set(draws).count == 3, "seeds 0, 7 and 99 drew \(draws)")
        #expect(draws[0] == (try ListeningTestPlan.draw(from: [run], count: 5, seed: 0).clips.map(\.id)))
        let lowest = (0..<5).map { String(format: "c%03d", $0) }
        #expect(draws.filter { $0 == lowest }.count <= 1, "\(draws)")
    }

    /// Issue 40 item 5: a corpus mixed from a range is stratified in 5 dB bands whatever its size.
    @Test func aRangeCorpusIsStratifiedInBands() throws {
        var run = scores("continuous", clips: 20, snrs: (0..<20).map { -4.9 + 0.74 * Double($0) })
        run.snrRule = .bands5dB
        let plan = try ListeningTestPlan.draw(from: [run], count: 6, seed: 1)
        #expect(Dictionary(grouping: plan.clips, by: \.stratum).mapValues(\.count) == ["snr=[-5,0)": 2, "snr=[0,5)": 2, "snr=[5,10)": 2])
    }
}
