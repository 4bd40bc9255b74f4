import Foundation

/// Whether a scored clip was reverberated, by which room impulse response, and what its clean
/// reference is under reverberation (the mix's `--target`): what the `rir=…` and `target=…`
/// subsets of a score summary group clips by (``ScoreSummary/subsets(snrDB:split:degradations:reverberation:snrRule:)``).
public struct ClipReverberation: Sendable, Hashable {
    /// The RIR's name (its file name without the extension); nil for a clip mixed without one.
    public var rir: String?
    /// The reference's target for a reverberated clip: `dry`, `early` or `reverberant`.
    public var target: String

    /// A clip convolved with the RIR at `rirPath` (nil: none), with `target` its reference's target.
    public init(rirPath: String?, target: String) {
        rir = rirPath.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        self.target = target
    }

    /// At most this many distinct RIRs get a subset each (as SNRs: ``SNRSubsetRule/inferred(distinctSNRs:)``).
    public static let maximumNamedRIRs = 25

    /// The reverberation subsets of clips whose reverberation is `reverberation` (nil: unknown,
    /// a clip not from a mix manifest or not in the catalogue); none when no clip was reverberated.
    /// `rir=none` (clips mixed without a RIR) and `rir=any` (with one) when both occur; one `rir=NAME`
    /// per RIR when there are 2 to ``maximumNamedRIRs`` of them (sorted); one `target=T` per target of
    /// the reverberated clips (sorted), saying what their references are.
    static func subsets(_ reverberation: [ClipReverberation?]) -> [(label: String, members: [Int])] {
        let reverberated = reverberation.indices.filter { reverberation[$0]?.rir != nil }
        guard !reverberated.isEmpty else { return [] }
        var subsets: [(label: String, members: [Int])] = []
        let dry = reverberation.indices.filter { reverberation[$0] != nil && reverberation[$0]?.rir == nil }
        if !dry.isEmpty { subsets += [("rir=none", dry), ("rir=any", reverberated)] }
        let rooms = Dictionary(grouping: reverberated) { reverberation[$0]!.rir! }
        if (2...maximumNamedRIRs).contains(rooms.count) {
            subsets += rooms.keys.sorted().map { ("rir=\($0)", rooms[$0]!) }
        }
        let targets = Dictionary(grouping: reverberated) { reverberation[$0]!.target }
        subsets += targets.keys.sorted().map { ("target=\($0)", targets[$0]!) }
        return subsets
    }
}
