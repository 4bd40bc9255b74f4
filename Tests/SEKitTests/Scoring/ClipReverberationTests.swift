import Foundation
import Testing
@testable import SEKit

/// The reverberation subsets of a score summary (``ClipReverberation/subsets(_:)``).
@Suite struct ClipReverberationTests {
    static let dry = ClipReverberation(rirPath: nil, target: "dry")
    static func room(_ path: String, _ target: String = "dry") -> ClipReverberation { ClipReverberation(rirPath: path, target: target) }
    static func labels(_ clips: [ClipReverberation?]) -> [String] { ClipReverberation.subsets(clips).map(\.label) }

    @Test func subsetsFollowTheRooms() {
        #expect(Self.room("/data/rirs/small_room.wav").rir == "small_room")
        // No reverberated clip: no subsets.
        #expect(Self.labels([Self.dry, Self.dry, nil]) == [])
        // One RIR: none/any and the target; no per-RIR subset (it would repeat rir=any). Unknown clips in none of them.
        let one = ClipReverberation.subsets([Self.dry, Self.room("a.wav"), nil])
        #expect(one.map(\.label) == ["rir=none", "rir=any", "target=dry"])
        #expect(one.map(\.members) == [[0], [1], [1]])
        // Every clip reverberated, two rooms (sorted), two targets (sorted).
        #expect(Self.labels([Self.room("b.wav", "early"), Self.room("a.wav")]) == ["rir=a", "rir=b", "target=dry", "target=early"])
        // More rooms than the named limit: only none/any and the target.
        let many = (0...ClipReverberation.maximumNamedRIRs).map { Self.room("r\($0).wav") } + [Self.dry]
        #expect(Self.labels(many) == ["rir=none", "rir=any", "target=dry"])
    }

    @Test func theSummaryAddsThemAfterTheOtherSubsets() {
        let subsets = ScoreSummary.subsets(snrDB: [0, 5, 5], split: [nil, nil, nil], degradations: [],
                                           reverberation: [Self.dry, Self.room("a.wav"), Self.room("b.wav")])
        #expect(subsets.map(\.label) == ["all", "snr=0", "snr=5", "rir=none", "rir=any", "rir=a", "rir=b", "target=dry"])
    }
}
