import Foundation
import SEKitSignal

/// How the parameters of N shard runs of one command become the parameters of the one run they
/// fold into (`sekit catalog merge`), so that the folded run equals a single-process run.
///
/// Most parameters are the command's options and must be equal in every shard (a shard run with
/// another value is another command, and the fold is refused). The counts a command records when it
/// finishes cover its own shard and are summed; a few are recomputed from the folded rows.
public enum ShardFoldRules {
    /// How one parameter combines across shards.
    public enum Combination: Sendable, Equatable {
        /// The same in every shard (options; counts over the whole corpus such as `clips_planned`).
        case equal
        /// The same in every shard but recorded only when a run finishes (`clips_missing`: counts over
        /// the whole corpus): taken from the first shard, and not compared, since a failed attempt lacks it.
        case atFinish
        /// Integer counts of the shard's own items, summed.
        case sum
        /// Lines (`clip 3: reason`) of every shard, in shard order of their first clip index.
        case lines
        /// Comma-separated integers (`resampled_from_hz`): the sorted union.
        case numberSet
        /// A per-shard output (a features shard's own file): the shards' values in shard order,
        /// comma-separated.
        case perShard
        /// Recomputed from the folded rows (`ShardFold`): the total audio of a mix's clips.
        case recomputed
        /// Describes the shard itself (`shard`): set by the fold.
        case shard
    }

    /// Parameter keys whose combination is not ``Combination/equal``.
    static let rules: [RunKind: [String: Combination]] = [
        .mix: ["clips_written": .sum, "clips_resumed": .sum, "clips_failed": .sum, "failures": .lines,
               "audio_seconds": .recomputed, "skipped_sources": .atFinish, "skipped": .atFinish],
        .features: ["clips": .sum, "frames": .sum, "out": .perShard, "clips_missing": .atFinish, "statistics_split": .atFinish],
        .enhance: ["clips_written": .sum, "clips_failed": .sum],
        .synthesize: ["clips_written": .sum, "clips_failed": .sum],
        .score: ["clips": .sum, "clips_failed": .sum, "values_failed": .sum, "resampled_clips": .sum,
                 "resampled_from_hz": .numberSet, "clips_missing": .atFinish],
    ]

    /// The parameter naming a run's parent when the shard's catalogue did not hold it (a synthesize
    /// shard reading a merged feature file, whose folded features run only the merge brings in).
    public static let parentParams: [RunKind: String] = [.synthesize: "features_run_id"]

    /// Kinds whose runs can be folded, in lineage order (a kind's parents fold before it).
    public static let foldableKinds: [RunKind] = [.mix, .features, .enhance, .synthesize, .score]

    /// How `key` of a `kind` run combines.
    public static func combination(of key: String, kind: RunKind) -> Combination {
        if key == "shard" { return .shard }
        return rules[kind]?[key] ?? .equal
    }

    /// Parameters the fold adds: the number of shards folded and their run ids in shard order.
    public static let foldedShardsKey = Catalog.foldedShardsKey
    public static let foldedRunsKey = "folded_runs"

    /// The folded value of `key` from the shards' values (in shard order; nil where a shard lacks it).
    static func combine(_ values: [String?], as combination: Combination) -> String? {
        let present = values.compactMap { $0 }
        guard !present.isEmpty else { return nil }
        switch combination {
        case .equal, .atFinish, .recomputed, .shard: return present[0]
        case .sum: return String(present.reduce(0) { $0 + (Int($1) ?? 0) })
        case .lines:
            let lines = present.flatMap { $0.split(separator: "\n").map(String.init) }.enumerated()
            return lines.sorted { (clipIndex(of: $0.element), $0.offset) < (clipIndex(of: $1.element), $1.offset) }
                .map(\.element).joined(separator: "\n")
        case .numberSet:
            return Set(present.flatMap { $0.split(separator: ",").compactMap { Int($0) } }).sorted().map(String.init).joined(separator: ",")
        case .perShard: return present.joined(separator: ",")
        }
    }

    /// The clip index of a `clip 12: reason` line (lines without one sort first, in their order).
    private static func clipIndex(of line: String) -> Int {
        guard line.hasPrefix("clip "), let number = line.dropFirst(5).split(separator: ":").first else { return -1 }
        return Int(number) ?? -1
    }
}
