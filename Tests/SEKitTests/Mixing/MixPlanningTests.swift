import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct MixPlanningTests {
    @Test func valueSpecsParseListsAndRanges() throws {
        #expect(try ValueSpec(parsing: "-5,0,5,10", option: "snr-db") == .list([-5, 0, 5, 10]))
        #expect(try ValueSpec(parsing: "-5:20", option: "snr-db") == .uniform(low: -5, high: 20))
        #expect(try ValueSpec(parsing: "-35:-15", option: "level-dbfs") == .uniform(low: -35, high: -15))
        #expect(try ValueSpec(parsing: "3", option: "snr-db") == .list([3]))
        #expect(throws: MixError.self) { try ValueSpec(parsing: "20:-5", option: "snr-db") }
        #expect(throws: MixError.self) { try ValueSpec(parsing: "five", option: "snr-db") }
        #expect(throws: MixError.self) { try ValueSpec(parsing: "1,,2", option: "snr-db") }
        #expect(try CountRange(parsing: "1:3", option: "n") == CountRange(low: 1, high: 3))
        #expect(throws: MixError.self) { try CountRange(parsing: "0", option: "noises-per-clip", minimum: 1) }
    }

    @Test func drawsStayInRangeAndCoverTheList() {
        var rng = SplitMix64(seed: 42)
        var seen = Set<Double>()
        for _ in 0..<1000 {
            let u = ValueSpec.uniform(low: -5, high: 20).draw(using: &rng)
            #expect(u >= -5 && u <= 20)
            seen.insert(ValueSpec.list([-5, 0, 5]).draw(using: &rng))
        }
        #expect(seen == [-5, 0, 5])
    }

    @Test func splitMix64MatchesPublishedSequence() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func apportionSumsAndFollowsFractions() throws {
        let spec = try SplitSpec(parsing: "train=0.8,valid=0.1,test=0.1")
        #expect(spec.apportion(10) == [8, 1, 1])
        #expect(spec.apportion(7).reduce(0, +) == 7)
        #expect(spec.split(ofClip: 0, count: 10) == 0)
        #expect(spec.split(ofClip: 8, count: 10) == 1)
        #expect(spec.split(ofClip: 9, count: 10) == 2)
        #expect(throws: MixError.self) { try SplitSpec(parsing: "train=0.9,train=0.1") }
        #expect(throws: MixError.self) { try SplitSpec(parsing: "train") }
        // Fractions must sum to 1 (0.9 + 0.9 used to become 50/50 without a word); weights are normalised.
        #expect(throws: MixError.invalidOption(name: "split", value: "train=0.9,test=0.9",
                                               reason: "the fractions sum to 1.8, not 1 "
                                                   + "(give fractions that sum to 1, or weights such as train=9,test=1)")) {
            try SplitSpec(parsing: "train=0.9,test=0.9")
        }
        #expect(throws: MixError.self) { try SplitSpec(parsing: "train=0.5,test=0.4") }
        #expect(try SplitSpec(parsing: "train=9,test=1").fractions == [0.9, 0.1])
        #expect(try SplitSpec(parsing: "train=0.9,valid=0.05,test=0.05").names.count == 3)
    }

    func sources(_ kind: MixSource.Kind, _ n: Int, speakers: Int = 0) -> [MixSource] {
        (0..<n).map { i in
            MixSource(kind: kind, path: "/data/\(kind)/\(i).wav", key: "\(kind)/\(i).wav",
                      speaker: speakers > 0 ? "spk\(i % speakers)" : nil, frames: 16000 * (2 + i % 5), sampleRate: 16000)
        }
    }

    @Test func splitsAreDisjointAndIndependentOfInputOrder() throws {
        let spec = try SplitSpec(parsing: "train=0.7,test=0.3")
        let speech = sources(.speech, 40, speakers: 8)
        let a = try SplitAssignment.assign(speech, spec: spec, seed: 1, bySpeaker: true, kind: "speech")
        #expect(Set(a[0]).isDisjoint(with: Set(a[1])))
        #expect(a[0].count + a[1].count == 40)
        let speakersA = Set(a[0].map { speech[$0].speaker! }), speakersB = Set(a[1].map { speech[$0].speaker! })
        #expect(speakersA.isDisjoint(with: speakersB))

        var options = MixOptions()
        options.count = 50; options.split = spec; options.seed = 9; options.disjointSpeakers = true
        let noise = sources(.noise, 6)
        let planner1 = try MixPlanner(options: options, speech: speech, noise: noise, rirs: [])
        let planner2 = try MixPlanner(options: options, speech: speech.reversed(), noise: noise.shuffled(), rirs: [])
        for i in 0..<50 {
            let p1 = planner1.plan(index: i), p2 = planner2.plan(index: i)
            #expect(p1 == p2)
            #expect(planner1.speech[p1.speech[0].source].path == planner2.speech[p2.speech[0].source].path)
        }
        // No noise file is used in two splits.
        var splitOfNoise: [String: String] = [:]
        for i in 0..<50 {
            let plan = planner1.plan(index: i)
            for piece in plan.noises {
                let path = planner1.noise[piece.source].path
                #expect(splitOfNoise[path, default: plan.split] == plan.split)
                splitOfNoise[path] = plan.split
            }
        }
    }

    @Test func plansRespectLengthsAndSNRShares() throws {
        var options = MixOptions()
        options.count = 200; options.seconds = 3; options.noisesPerClip = CountRange(low: 1, high: 3)
        options.snrDB = .uniform(low: -5, high: 20)
        let planner = try MixPlanner(options: options, speech: sources(.speech, 10), noise: sources(.noise, 5), rirs: [])
        for i in 0..<200 {
            let plan = planner.plan(index: i)
            #expect(plan.length == 48000)
            #expect(plan.clipID == ClipPlan.clipID(seed: 0, index: i))
            #expect((1...3).contains(plan.noises.count))
            // Shares: sum of 10^(-snr_k/10) equals 10^(-snr/10).
            let total = plan.noises.reduce(0) { $0 + pow(10, -$1.snrDB / 10) }
            #expect(abs(10 * log10(1 / total) - plan.snrDB) < 1e-9)
            for piece in plan.speech {
                #expect(piece.position + piece.length <= plan.length)
                #expect(piece.offset + piece.length <= planner.speech[piece.source].frames)
            }
        }
    }

    @Test func hoursSetTheClipCount() throws {
        var options = MixOptions()
        options.hours = 1; options.seconds = 4
        let planner = try MixPlanner(options: options, speech: sources(.speech, 3), noise: sources(.noise, 2), rirs: [])
        #expect(planner.clipCount == 900)
    }

    @Test func shardsPartitionTheClips() throws {
        let n = 4
        var union: [Int] = []
        for i in 1...n {
            let shard = try Shard(parsing: "\(i)/\(n)")
            union += (0..<103).filter(shard.contains)
        }
        #expect(union.sorted() == Array(0..<103))
        #expect(throws: ShardError(value: "0/4")) { try Shard(parsing: "0/4") }
        #expect(throws: ShardError(value: "5/4")) { try Shard(parsing: "5/4") }
    }

    /// An absurd clip count is refused up front instead of allocating until memory runs out.
    @Test func absurdClipCountsAreRefused() throws {
        var options = MixOptions()
        options.count = 1_000_000_000_000
        #expect(throws: MixError.self) { try options.validate() }
        options.count = nil
        options.hours = 1e9
        let speech = [MixSource(kind: .speech, path: "/s.wav", key: "s.wav", frames: 64_000, sampleRate: 16_000)]
        let noise = [MixSource(kind: .noise, path: "/n.wav", key: "n.wav", frames: 64_000, sampleRate: 16_000)]
        #expect(throws: MixError.self) { try MixPlanner(options: options, speech: speech, noise: noise, rirs: []) }
        options.hours = 10
        #expect(try MixPlanner(options: options, speech: speech, noise: noise, rirs: []).clipCount == 9000)
    }
}
